import FairFuelParsers
import Foundation
import Testing
import TestSupport

/// Seeded random input: mutated real sentences and random bytes. Nothing may
/// crash, counters must add up, and every decoded value must be in range.
/// `scripts/fuzz-nmea.sh` runs the same with more inputs and other seeds.
@Suite struct NMEAFuzzTests {
    static var inputCount: Int {
        Int(ProcessInfo.processInfo.environment["FAIRFUEL_FUZZ_INPUTS"] ?? "") ?? 200_000
    }

    static var seed: UInt64 {
        UInt64(ProcessInfo.processInfo.environment["FAIRFUEL_FUZZ_SEED"] ?? "") ?? 20_261_120
    }

    /// Real sentences from the gpsd logs (the fixtures are in the test bundle).
    static func corpus() throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        for log in NMEAFixtures.gpsdLogs where !log.contains("/ais/") {
            for line in NMEAFixtures.lines([UInt8](try NMEAFixtures.data(log))) where line.first == 0x24 {
                var bytes = Array(line)
                if bytes.last == 0x0D { bytes.removeLast() }
                if bytes.count <= 120 { out.append(bytes) }
            }
        }
        return out
    }

    @Test func seededRandomInput() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count > 10_000)
        var random = SeededGenerator(seed: Self.seed)
        var lineDecoder = NMEAFixDecoder()
        var frameDecoder = NMEAFixDecoder(configuration: NMEAConfiguration(allowMissingChecksum: true))
        let parser = NMEAParser()
        var outcomes = [0, 0, 0, 0]  // decoded, bad checksum, malformed, unsupported
        var fixes = 0
        for _ in 0..<Self.inputCount {
            let input = Self.mutate(corpus[Int(random.next() % UInt64(corpus.count))], &random)
            let slice = ArraySlice(input)
            do throws(NMEAError) {
                check(try parser.parse(slice))
                outcomes[0] += 1
            } catch {
                switch error.category {
                case .badChecksum: outcomes[1] += 1
                case .malformed: outcomes[2] += 1
                case .unsupported: outcomes[3] += 1
                }
            }
            lineDecoder.feed(line: slice) { fix in
                fixes += 1
                check(fix)
            }
            frameDecoder.feed(sentence: slice) { check($0) }
        }
        lineDecoder.finish { check($0) }
        let stats = lineDecoder.stats
        print("fuzz: \(Self.inputCount) inputs, seed \(Self.seed): parse outcomes \(outcomes), fixes \(fixes), \(stats.jsonLine)")
        #expect(stats.isConsistent)
        #expect(stats.lines == Self.inputCount)
        #expect(frameDecoder.stats.isConsistent)
        #expect(frameDecoder.stats.sentences == Self.inputCount)
        #expect(outcomes.reduce(0, +) == Self.inputCount)
        // Every category is exercised.
        #expect(outcomes.allSatisfy { $0 > 100 })
        #expect(fixes > 100)
    }

    /// One of: a real sentence with byte edits (checksum left or fixed up), cut short,
    /// run together with another, or random bytes.
    static func mutate(_ original: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        let alphabet = Array("0123456789.,-*$!ANSEWVMT\r\n \u{7F}".utf8) + [0x00, 0xFF, 0xC3]
        switch random.next() % 8 {
        case 0:
            return bytes
        case 1, 2, 3:
            let edits = 1 + Int(random.next() % 3)
            for _ in 0..<edits where !bytes.isEmpty {
                let position = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            if random.next() % 2 == 0 { fixChecksum(&bytes) }
            return bytes
        case 4:
            return Array(bytes.prefix(Int(random.next() % UInt64(bytes.count + 1))))
        case 5:
            // A field's digits replaced with long runs (overflow hunting), checksum fixed.
            if let comma = bytes.firstIndex(of: 0x2C) {
                let run = [UInt8](repeating: UInt8(ascii: "9"), count: Int(random.next() % 40))
                bytes.insert(contentsOf: run, at: comma + 1)
                fixChecksum(&bytes)
            }
            return bytes
        case 6:
            return bytes + [0x24] + bytes
        default:
            let count = Int(random.next() % 300)
            var junk = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if count > 0 && random.next() % 2 == 0 { junk[0] = 0x24 }
            return junk
        }
    }

    static func fixChecksum(_ bytes: inout [UInt8]) {
        guard bytes.first == 0x24 || bytes.first == 0x21 else { return }
        let body = bytes.dropFirst().prefix { $0 != 0x2A }
        let sum = body.reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF".utf8)
        bytes = [bytes[0]] + body + [0x2A, digits[Int(sum >> 4)], digits[Int(sum & 0xF)]]
    }

    private func check(_ sentence: NMEASentence) {
        if let time = sentence.time { #expect(time.milliseconds >= 0 && time.milliseconds < 86_401_000) }
        switch sentence {
        case .rmc(let s): checkPosition(s.latitude, s.longitude)
        case .gga(let s): checkPosition(s.latitude, s.longitude)
        case .gns(let s): checkPosition(s.latitude, s.longitude)
        case .gll(let s): checkPosition(s.latitude, s.longitude)
        case .gsv(let s): #expect(s.satelliteCount <= 4)
        case .gsa(let s): #expect(s.satellites.count <= 12 && s.satellites.count <= s.satellites.listedCount)
        case .vtg, .zda: break
        }
    }

    private func checkPosition(_ latitude: Double?, _ longitude: Double?) {
        if let latitude { #expect(abs(latitude) <= 90) }
        if let longitude { #expect(abs(longitude) <= 180) }
    }

    private func check(_ fix: GNSSFix) {
        #expect((fix.mode >= .fix2D) == (fix.latitude != nil && fix.longitude != nil))
        if fix.mode < .fix2D { #expect(fix.speed == nil && fix.altitude == nil) }
        _ = fix.jsonLine
    }
}
