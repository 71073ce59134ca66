// NMEA 0183 parsing speed and allocations over the sentences of the gpsd
// regression logs (Tests/FairFuelParsersTests/Fixtures/nmea/gpsd: 70 real
// receivers, about 20 000 sentences). Each iteration parses every sentence once,
// so mallocs per sentence = mallocCountTotal / "sentences" (target: 0).
// The packet lexer runs over the logs' raw bytes (text logs and the mixed-binary
// ones with UBX), fed in 4 KiB reads as from a serial port: bytes/s and mallocs
// (target: 0 per byte and per packet); once more over the text logs alone, the
// byte stream of the very sentences parsed above.
// scripts/bench-nmea-vs-minmea.sh runs the parse and text-lexer benchmarks
// interleaved with minmea over the same sentences.
// Run: cd Benchmarks && swift package --scratch-path .build-nmea benchmark --target NMEAParsing
import Benchmark
import FairFuelParsers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every line of the text logs, CR kept, in one buffer: the sentences (lines from
/// `$`/`!`, CR dropped, as the link codec hands them) and the raw lines.
struct Corpus {
    var bytes: [UInt8] = []
    var sentences: [Range<Int>] = []
    var lines: [Range<Int>] = []
    /// The text logs' files as they are (LF kept).
    var raw: [UInt8] = []
    /// The text logs and the mixed-binary logs as they are.
    var rawMixed: [UInt8] = []

    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Benchmarks/NMEAParsing/NMEAParsing.swift
        return parts.joined(separator: "/") + "/../Tests/FairFuelParsersTests/Fixtures/nmea/gpsd"
    }()

    static let shared: Corpus = {
        var corpus = Corpus()
        for name in logNames() {
            guard let file = fopen(directory + "/" + name, "rb") else { continue }
            defer { fclose(file) }
            var lineStart = corpus.bytes.count
            while true {
                let byte = fgetc(file)
                if byte == EOF { break }
                if byte == 0x0A {
                    corpus.add(lineStart..<corpus.bytes.count)
                    lineStart = corpus.bytes.count
                } else {
                    corpus.bytes.append(UInt8(byte))
                }
            }
            if lineStart < corpus.bytes.count { corpus.add(lineStart..<corpus.bytes.count) }
        }
        for name in logNames() { corpus.raw += readFile(directory + "/" + name) }
        corpus.rawMixed = corpus.raw
        for name in logNames(in: directory + "/mixed-binary") {
            corpus.rawMixed += readFile(directory + "/mixed-binary/" + name)
        }
        precondition(corpus.sentences.count > 10_000, "fixtures not found under \(directory)")
        return corpus
    }()

    private mutating func add(_ line: Range<Int>) {
        lines.append(line)
        guard let first = line.first, bytes[first] == 0x24 || bytes[first] == 0x21 else { return }
        var end = line.upperBound
        if end > line.lowerBound && bytes[end - 1] == 0x0D { end -= 1 }
        sentences.append(line.lowerBound..<end)
    }

    static func readFile(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            out += chunk[0..<count]
        }
        return out
    }

    /// The `*.log` files of the folder (text logs; binary and AIS ones live in subfolders).
    private static func logNames(in directory: String = Corpus.directory) -> [String] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".log") { names.append(name) }
        }
        return names.sorted()
    }
}

let sentencesPerSecond = BenchmarkMetric.custom("sentences/s", polarity: .prefersLarger, useScalingFactor: false)
let sentencesPerIteration = BenchmarkMetric.custom("sentences", polarity: .prefersLarger, useScalingFactor: false)
let bytesPerSecond = BenchmarkMetric.custom("bytes/s", polarity: .prefersLarger, useScalingFactor: false)
let packetsPerIteration = BenchmarkMetric.custom("packets", polarity: .prefersLarger, useScalingFactor: false)
/// Sentences that decoded to a typed result (the rest are counted and skipped).
let decodedPerIteration = BenchmarkMetric.custom("decoded", polarity: .prefersLarger, useScalingFactor: false)

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // No metric that reads /proc inside the measured region, so that the
        // malloc count is the parser's own.
        metrics: [.wallClock, .throughput, .mallocCountTotal, sentencesPerSecond, sentencesPerIteration, decodedPerIteration],
        warmupIterations: 3,
        maxDuration: .seconds(5),
        maxIterations: 200)

    Benchmark("Parse sentences (checksum, fields, typed result)") { benchmark in
        let corpus = Corpus.shared
        var decoder = NMEADecoder()
        var types = 0
        let clock = ContinuousClock()
        let bytes = corpus.bytes.span
        benchmark.startMeasurement()
        let start = clock.now
        for range in corpus.sentences {
            if let sentence = decoder.decode(bytes.extracting(range)) { types &+= Int(sentence.type.rawValue) }
        }
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        blackHole(types)
        precondition(decoder.stats.sentences == corpus.sentences.count && decoder.stats.isConsistent)
        benchmark.measurement(sentencesPerSecond, Int(Double(corpus.sentences.count) / seconds(elapsed)))
        benchmark.measurement(sentencesPerIteration, corpus.sentences.count)
        benchmark.measurement(decodedPerIteration, decoder.stats.decoded)
    }

    Benchmark("Sentences to fixes (parse and assemble epochs)") { benchmark in
        let corpus = Corpus.shared
        var decoder = NMEAFixDecoder()
        var fixes = 0
        let clock = ContinuousClock()
        let bytes = corpus.bytes.span
        benchmark.startMeasurement()
        let start = clock.now
        for range in corpus.sentences {
            decoder.feed(sentence: bytes.extracting(range)) { fix in
                fixes += 1
                blackHole(fix)
            }
        }
        decoder.finish { _ in fixes += 1 }
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        precondition(fixes > 1000)
        benchmark.measurement(sentencesPerSecond, Int(Double(corpus.sentences.count) / seconds(elapsed)))
        benchmark.measurement(sentencesPerIteration, corpus.sentences.count)
    }

    Benchmark("Text lines to fixes (comments, junk, CR)") { benchmark in
        let corpus = Corpus.shared
        var decoder = NMEAFixDecoder()
        var fixes = 0
        let clock = ContinuousClock()
        benchmark.startMeasurement()
        let start = clock.now
        for range in corpus.lines {
            decoder.feed(line: corpus.bytes[range]) { fix in
                fixes += 1
                blackHole(fix)
            }
        }
        decoder.finish { _ in fixes += 1 }
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        precondition(decoder.stats.lines == corpus.lines.count && decoder.stats.isConsistent)
        benchmark.measurement(sentencesPerSecond, Int(Double(decoder.stats.sentences) / seconds(elapsed)))
        benchmark.measurement(sentencesPerIteration, decoder.stats.sentences)
    }

    let lexerMetrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, bytesPerSecond, packetsPerIteration]
    Benchmark(
        "Lexer: raw log bytes to packets (NMEA, UBX, comments), 4 KiB reads",
        configuration: .init(metrics: lexerMetrics)
    ) { benchmark in
        let corpus = Corpus.shared
        let lexer = lex(corpus.rawMixed.span, benchmark)
        precondition(lexer.stats.ubx > 1000)
    }

    Benchmark(
        "Lexer: text log bytes to packets (the parsed sentences' stream), 4 KiB reads",
        configuration: .init(metrics: lexerMetrics)
    ) { benchmark in
        let corpus = Corpus.shared
        let lexer = lex(corpus.raw.span, benchmark)
        precondition(lexer.stats.nmea >= corpus.sentences.count / 2)
    }

    Benchmark("Raw text bytes to fixes (lex, parse, assemble), 4 KiB reads") { benchmark in
        let corpus = Corpus.shared
        var decoder = NMEAFixDecoder()
        var fixes = 0
        let clock = ContinuousClock()
        let bytes = corpus.raw.span
        benchmark.startMeasurement()
        let start = clock.now
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 4096)
            decoder.feed(bytes: bytes.extracting(offset..<end)) { fix in
                fixes += 1
                blackHole(fix)
            }
            offset = end
        }
        decoder.finish { _ in fixes += 1 }
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        precondition(fixes > 1000 && decoder.lexerStats.isConsistent)
        benchmark.measurement(sentencesPerSecond, Int(Double(decoder.stats.sentences) / seconds(elapsed)))
        benchmark.measurement(sentencesPerIteration, decoder.stats.sentences)
    }

    // Five million random inputs: real sentences with byte edits (checksum fixed
    // half the time, so field parsers see the damage), cut short, doubled, and
    // raw noise. A crash ends the run; counters must add up.
    Benchmark(
        "Random input, 5M inputs",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 0, maxIterations: 1)
    ) { benchmark in
        let corpus = Corpus.shared
        var state: UInt64 = 0x4E4D_4541
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet = Array("0123456789.,-*$!ANSEWVMT\r\n \u{7F}".utf8) + [0x00, 0xFF, 0xC3]
        let hex = Array("0123456789ABCDEF".utf8)
        var input = [UInt8](repeating: 0, count: 512)
        var lines = NMEAFixDecoder()
        var frames = NMEAFixDecoder(configuration: NMEAConfiguration(allowMissingChecksum: true))
        var fixes = 0
        let count = 5_000_000
        benchmark.startMeasurement()
        for _ in 0..<count {
            let range = corpus.sentences[Int(next() % UInt64(corpus.sentences.count))]
            var length = min(range.count, 240)
            for i in 0..<length { input[i] = corpus.bytes[range.lowerBound + i] }
            switch next() % 6 {
            case 0, 1, 2:
                for _ in 0..<(1 + Int(next() % 3)) where length > 0 {
                    input[Int(next() % UInt64(length))] = alphabet[Int(next() % UInt64(alphabet.count))]
                }
                if next() % 2 == 0, let star = (0..<length).last(where: { input[$0] == 0x2A }), star + 2 < 512 {
                    var sum: UInt8 = 0
                    for i in 1..<max(star, 1) { sum ^= input[i] }
                    input[star + 1] = hex[Int(sum >> 4)]
                    input[star + 2] = hex[Int(sum & 0xF)]
                    length = star + 3
                }
            case 3:
                length = Int(next() % UInt64(length + 1))
            case 4:
                for i in 0..<length { input[length + i] = input[i] }
                length *= 2
            default:
                length = Int(next() % 512)
                for i in 0..<length { input[i] = UInt8(truncatingIfNeeded: next()) }
            }
            let bytes = input[0..<length]
            lines.feed(line: bytes) { _ in fixes += 1 }
            frames.feed(sentence: bytes) { _ in fixes += 1 }
        }
        lines.finish { _ in fixes += 1 }
        benchmark.stopMeasurement()
        precondition(lines.stats.isConsistent && lines.stats.lines == count)
        precondition(frames.stats.isConsistent && frames.stats.sentences == count)
        blackHole(fixes)
    }
}

/// Feeds `bytes` to a fresh lexer in 4 KiB reads inside the measured region and records bytes/s and packets.
func lex(_ bytes: Span<UInt8>, _ benchmark: Benchmark) -> GNSSPacketLexer {
    var lexer = GNSSPacketLexer()
    var packets = 0
    var kinds = 0
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let start = clock.now
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + 4096)
        while offset < end {
            offset += lexer.feed(bytes.extracting(offset..<end))
            while let packet = lexer.next() {
                packets &+= 1
                kinds &+= Int(packet.kind.rawValue)
            }
        }
    }
    lexer.markEnd()
    while lexer.next() != nil { packets &+= 1 }
    let elapsed = clock.now - start
    benchmark.stopMeasurement()
    blackHole(kinds)
    precondition(lexer.stats.isConsistent && lexer.stats.bytes == bytes.count)
    benchmark.measurement(bytesPerSecond, Int(Double(bytes.count) / seconds(elapsed)))
    benchmark.measurement(packetsPerIteration, packets)
    return lexer
}
