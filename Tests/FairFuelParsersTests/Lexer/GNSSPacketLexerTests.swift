import FairFuelParsers
import Foundation
import Testing
import TestSupport

/// What the lexer hands out, for comparing runs.
struct LexedPacket: Equatable, CustomStringConvertible {
    var kind: GNSSPacketKind
    var bytes: [UInt8]
    var description: String { "\(kind) \(bytes.count) B" }
}

enum LexerRun {
    /// Lexes `input` fed in pieces of the given sizes (cycled), then ends it.
    static func packets(
        _ input: [UInt8], chunks: [Int] = [Int.max], maximumPacketBytes: Int = GNSSPacketLexer.defaultMaximumPacketBytes
    ) -> (packets: [LexedPacket], stats: GNSSLexerStats) {
        var lexer = GNSSPacketLexer(maximumPacketBytes: maximumPacketBytes)
        var out: [LexedPacket] = []
        var start = 0
        var chunk = 0
        func drain() {
            while let packet = lexer.next() {
                let bytes = lexer.withBytes(of: packet) { span in
                    var copy: [UInt8] = []
                    for index in span.indices { copy.append(span[index]) }
                    return copy
                }
                out.append(LexedPacket(kind: packet.kind, bytes: bytes))
            }
        }
        while start < input.count {
            let end = min(input.count, start + min(chunks[chunk % chunks.count], input.count - start))
            chunk += 1
            var offset = start
            while offset < end {
                offset += lexer.feed(input.span.extracting(offset..<end))
                drain()
            }
            start = end
        }
        lexer.markEnd()
        drain()
        return (out, lexer.stats)
    }

    static func text(_ packets: [LexedPacket], _ kind: GNSSPacketKind = .nmea) -> [String] {
        packets.filter { $0.kind == kind }.map { String(decoding: $0.bytes, as: UTF8.self) }
    }
}

/// Packet builders from the protocol documents (tests only).
enum Framing {
    static func ubx(_ cls: UInt8, _ id: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let body = [cls, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in body {
            a &+= byte
            b &+= a
        }
        return [0xB5, 0x62] + body + [a, b]
    }

    static func casic(_ cls: UInt8, _ id: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var sum = UInt32(id) << 24 &+ UInt32(cls) << 16 &+ UInt32(payload.count)
        for index in stride(from: 0, to: payload.count, by: 4) {
            sum &+= UInt32(payload[index]) | UInt32(payload[index + 1]) << 8 | UInt32(payload[index + 2]) << 16
                | UInt32(payload[index + 3]) << 24
        }
        return [0xBA, 0xCE, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), cls, id] + payload
            + [UInt8(sum & 0xFF), UInt8(sum >> 8 & 0xFF), UInt8(sum >> 16 & 0xFF), UInt8(sum >> 24)]
    }

    static func sirf(_ payload: [UInt8]) -> [UInt8] {
        let sum = payload.reduce(0) { $0 + Int($1) } & 0x7FFF
        return [0xA0, 0xA2, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
            + [UInt8(sum >> 8), UInt8(sum & 0xFF), 0xB0, 0xB3]
    }

    static func rtcm3(_ payload: [UInt8]) -> [UInt8] {
        let head: [UInt8] = [0xD3, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        let crc = crc24q(head + payload)
        return head + payload + [UInt8(crc >> 16), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    /// Bitwise CRC-24Q, written from the RTCM 10403 definition.
    static func crc24q(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            for bit in (0..<8).reversed() {
                let incoming = UInt32(byte >> UInt8(bit) & 1)
                let top = crc >> 23 & 1
                crc = (crc << 1) & 0xFF_FFFF
                if top ^ incoming == 1 { crc ^= 0x86_4CFB }
            }
        }
        return crc
    }

    static func garmin(_ id: UInt8, _ data: [UInt8]) -> [UInt8] {
        var sum = id &+ UInt8(data.count)
        for byte in data { sum &+= byte }
        let checksum = 0 &- sum
        var out: [UInt8] = [0x10, id]
        for byte in [UInt8(data.count)] + data + [checksum] {
            out.append(byte)
            if byte == 0x10 { out.append(0x10) }
        }
        return out + [0x10, 0x03]
    }

    static func line(_ body: String) -> [UInt8] { Array((nmea(body) + "\r\n").utf8) }
}

@Suite struct GNSSPacketLexerTests {
    static let rmc = "GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E"
    static let gga = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"

    // Known vectors from the protocol documents, not from our own builders.
    @Test func publishedPacketsAreRecognised() {
        let vectors: [(GNSSPacketKind, [UInt8])] = [
            (.ubx, [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34]),  // UBX-MON-VER poll
            (.ubx, [0xB5, 0x62, 0x06, 0x00, 0x00, 0x00, 0x06, 0x18]),  // UBX-CFG-PRT poll
            (.sirf, [0xA0, 0xA2, 0x00, 0x02, 0x84, 0x00, 0x00, 0x84, 0xB0, 0xB3]),  // SiRF poll software version
            (.garmin, [0x10, 0xFE, 0x00, 0x02, 0x10, 0x03]),  // Garmin product request
        ]
        for (kind, bytes) in vectors {
            let (packets, stats) = LexerRun.packets(bytes)
            #expect(packets == [LexedPacket(kind: kind, bytes: bytes)], "\(kind)")
            #expect(stats.garbageBytes == 0 && stats.isConsistent)
        }
        // CRC-24Q check value of "123456789" (the catalogue's 0xCDE703), for the builder's CRC.
        #expect(Framing.crc24q(Array("123456789".utf8)) == 0xCD_E703)
    }

    @Test func everyFramingBetweenSentences() {
        let binary: [(GNSSPacketKind, [UInt8])] = [
            (.ubx, Framing.ubx(0x01, 0x07, Array(0..<92))),
            (.casic, Framing.casic(0x01, 0x03, Array(repeating: 0x24, count: 80))),
            (.sirf, Framing.sirf([0x02] + Array(repeating: 0x0A, count: 40))),
            (.rtcm3, Framing.rtcm3(Array(repeating: 0x3E, count: 19))),
            (.garmin, Framing.garmin(0x33, [0x10, 0x03, 0x24, 0x0A, 0x10])),
        ]
        var input: [UInt8] = []
        for (_, packet) in binary {
            input += Framing.line(Self.rmc) + packet
        }
        input += Framing.line(Self.gga)
        let (packets, stats) = LexerRun.packets(input)
        #expect(packets.map(\.kind) == [.nmea, .ubx, .nmea, .casic, .nmea, .sirf, .nmea, .rtcm3, .nmea, .garmin, .nmea])
        for (kind, packet) in binary {
            #expect(packets.contains(LexedPacket(kind: kind, bytes: packet)), "\(kind)")
            #expect(stats[kind] == 1)
        }
        #expect(stats.garbageBytes == 0 && stats.rejectedBinary == 0 && stats.isConsistent)
        #expect(LexerRun.text(packets).allSatisfy { $0.hasSuffix("*" + $0.suffix(2)) && !$0.contains("\r") })
    }

    /// Binary glued to a sentence with no line end on either side: both are whole.
    @Test func binaryGluedToSentences() {
        let ubx = Framing.ubx(0x01, 0x35, Array(repeating: 0x0D, count: 20))
        let input = Array(nmea(Self.rmc).utf8) + ubx + Array(nmea(Self.gga).utf8) + Framing.casic(5, 1, [1, 2, 3, 4])
        let (packets, stats) = LexerRun.packets(input)
        #expect(LexerRun.text(packets) == [nmea(Self.rmc), nmea(Self.gga)])
        #expect(stats.ubx == 1 && stats.casic == 1 && stats.garbageBytes == 0)
    }

    /// A UBX header whose length points past the following sentences (and past the end of
    /// the stream): the sentences are still found, whether more bytes follow or not.
    @Test func lengthPastTheStreamSwallowsNothing() {
        let fake: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0xA0, 0x0F, 0x00, 0x00]  // 4000 bytes promised
        var sentences: [String] = []
        var input: [UInt8] = Framing.line(Self.rmc) + fake
        for second in 0..<10 {
            let body = "GPGGA,1235\(second)0,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
            sentences.append(nmea(body))
            input += Framing.line(body)
        }
        // Ends inside the promised length.
        let (short, shortStats) = LexerRun.packets(input)
        #expect(LexerRun.text(short) == [nmea(Self.rmc)] + sentences)
        // The fake header's bytes are garbage (its A0 is tried as a SiRF sync too), nothing else.
        #expect(shortStats.garbageBytes == fake.count && shortStats.rejectedBinary == 2 && shortStats.isConsistent)
        // The stream goes on past the promised length: checksum fails, the same sentences come out.
        var long = input
        while long.count < 5000 { long += Framing.line(Self.gga) }
        let (packets, stats) = LexerRun.packets(long)
        #expect(Array(LexerRun.text(packets).prefix(11)) == [nmea(Self.rmc)] + sentences)
        #expect(stats.garbageBytes == fake.count && stats.nmea == LexerRun.text(packets).count && stats.isConsistent)
    }

    /// A length field above the lexer's maximum is refused at once.
    @Test func oversizedLengthIsRefusedAtOnce() {
        var lexer = GNSSPacketLexer(maximumPacketBytes: 2048)
        let input: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF] + Framing.line(Self.gga)
        _ = lexer.feed(input.span)
        let packet = lexer.next()
        #expect(packet?.kind == .nmea)
        #expect(lexer.stats.rejectedBinary == 1)
    }

    @Test func badChecksumResumesOneByteAfterTheSync() {
        var ubx = Framing.ubx(0x01, 0x07, Array(Framing.line(Self.gga)))  // a sentence inside the payload
        ubx[ubx.count - 1] ^= 0xFF
        let (packets, stats) = LexerRun.packets(ubx + Framing.line(Self.rmc))
        #expect(LexerRun.text(packets) == [nmea(Self.gga), nmea(Self.rmc)])
        #expect(stats.rejectedBinary == 1 && stats.ubx == 0 && stats.isConsistent)
        // The same packet whole: skipped with the sentence inside it.
        let good = Framing.ubx(0x01, 0x07, Array(Framing.line(Self.gga)))
        let (whole, _) = LexerRun.packets(good + Framing.line(Self.rmc))
        #expect(whole.map(\.kind) == [.ubx, .nmea])
    }

    @Test(arguments: [
        Framing.ubx(0x01, 0x07, (0..<40).map { UInt8(0x41 + $0 % 26) }), Framing.casic(1, 3, Array(repeating: 7, count: 16)),
        Framing.sirf(Array(repeating: 9, count: 30)), Framing.rtcm3(Array(repeating: 0x11, count: 25)),
        Framing.garmin(0x22, Array(repeating: 0x10, count: 6)),
    ])
    func truncatedBinaryAtTheEndIsCounted(packet: [UInt8]) {
        for cut in 1..<packet.count {
            let input = Framing.line(Self.gga) + Array(packet.prefix(cut))
            let (packets, stats) = LexerRun.packets(input)
            #expect(LexerRun.text(packets) == [nmea(Self.gga)], "cut at \(cut)")
            #expect(stats.binaryPackets == 0 && stats.isConsistent)
            #expect(stats.garbageBytes == cut, "cut at \(cut)")
        }
    }

    /// A binary sync inside a sentence cuts it (counted); the next whole sentence is found.
    @Test func syncInsideASentence() {
        let broken = Array("$GPGGA,123519,4807.0".utf8) + [0xB5, 0x62, 0x01] + Array("38,N,01131.000,E*47\r\n".utf8)
        let (packets, stats) = LexerRun.packets(broken + Framing.line(Self.rmc))
        #expect(LexerRun.text(packets) == [nmea(Self.rmc)])
        #expect(stats.truncatedNMEA == 1 && stats.isConsistent)
    }

    @Test func commentsOnlyAtLineStart() {
        let input = Array("# Name: test $GPGGA inside a comment\n".utf8) + Framing.line(Self.rmc)
            + Array("junk # not a comment\r\n".utf8) + Array("#\u{01}binary after a hash\n".utf8) + Framing.line(Self.gga)
        let (packets, stats) = LexerRun.packets(input)
        #expect(packets.map(\.kind) == [.comment, .nmea, .nmea])
        #expect(stats.comments == 1 && stats.isConsistent)
        #expect(stats.garbageBytes == "junk # not a comment".utf8.count + "#\u{01}binary after a hash".utf8.count)
    }

    @Test func tooLongSentenceIsCutAndTheNextFound() {
        let long = "$GPTXT," + String(repeating: "A", count: 400)
        let (packets, stats) = LexerRun.packets(Array((long + "\r\n").utf8) + Framing.line(Self.gga))
        #expect(LexerRun.text(packets) == [nmea(Self.gga)])
        #expect(stats.truncatedNMEA == 1 && stats.isConsistent)
    }

    /// Whole, byte by byte and in random chunks: the same packets and counters.
    @Test func chunkingNeverChangesTheOutput() throws {
        var inputs: [(String, [UInt8])] = []
        for name in SyntheticFixtures.names {
            inputs.append((name, [UInt8](try NMEAFixtures.data("synthetic/" + name))))
        }
        for log in NMEAFixtures.gpsdLogs where log.contains("mixed-binary/") || log.hasSuffix("ublox-8.log") {
            inputs.append((log, [UInt8](try NMEAFixtures.data(log))))
        }
        var random = SeededGenerator(seed: 14)
        for (name, input) in inputs {
            let whole = LexerRun.packets(input)
            let drip = LexerRun.packets(input, chunks: [1])
            #expect(drip.packets == whole.packets && drip.stats == whole.stats, "\(name) byte by byte")
            let sizes = (0..<64).map { _ in Int(random.next() % 300) + 1 }
            let chunked = LexerRun.packets(input, chunks: sizes)
            #expect(chunked.packets == whole.packets && chunked.stats == whole.stats, "\(name) random chunks")
            #expect(whole.stats.isConsistent && whole.stats.bytes == input.count)
            // And the fixes decoded from the stream, fed byte by byte.
            let (wholeFixes, _) = NMEAFixtures.stream(input)
            var decoder = NMEAFixDecoder()
            var dripFixes: [GNSSFix] = []
            for index in input.indices { decoder.feed(bytes: input[index...index]) { dripFixes.append($0) } }
            decoder.finish { dripFixes.append($0) }
            #expect(dripFixes == wholeFixes, "\(name) fixes byte by byte")
        }
    }

    /// Random bytes with real packets and sentences spliced in: never a crash, every byte
    /// decided, every whole sentence that was not overlapped found.
    @Test func randomBytesAroundWholeSentences() {
        var random = SeededGenerator(seed: 20_261_125)
        let syncs: [UInt8] = [0xB5, 0x62, 0xBA, 0xCE, 0xA0, 0xA2, 0xD3, 0x10, 0x03, 0x24, 0x0A, 0x0D, 0x23]
        for round in 0..<300 {
            var input: [UInt8] = []
            var planted: [String] = []
            for _ in 0..<8 {
                for _ in 0..<Int(random.next() % 40) {
                    input.append(random.next() % 3 == 0 ? syncs[Int(random.next() % UInt64(syncs.count))] : UInt8(truncatingIfNeeded: random.next()))
                }
                // A line end before the sentence: garbage may open a sentence-like run, never a packet
                // that reaches over it, since no binary length is valid with a random checksum.
                input += [0x0D, 0x0A]
                let body = "GPGGA,12\(round % 10)519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
                planted.append(nmea(body))
                input += Framing.line(body)
            }
            let (packets, stats) = LexerRun.packets(input)
            #expect(stats.isConsistent && stats.bytes == input.count)
            let found = LexerRun.text(packets)
            for sentence in planted { #expect(found.contains(sentence), "round \(round)") }
        }
    }
}

/// The largest mixed log of the corpus (1.2 MB of UBX NAV-HPPOSLLH, RXM-RAWX, RXM-SFRBX
/// and NMEA from a ZED-F9P, no gpsd output to compare): read from ../shared/corpus.
@Suite struct LargeMixedLogTests {
    static let path = PackagePaths.root + "/../shared/corpus/nmea/gpsd/mixed-binary/ublox-zed-f9p_hpg1.11.log"

    @Test func everyPacketAndSentenceFound() throws {
        guard let data = FileManager.default.contents(atPath: Self.path) else {
            print("skipped: \(Self.path) not found (the shared corpus is not on this machine)")
            return
        }
        let (fixes, decoder) = NMEAFixtures.stream([UInt8](data))
        let lexer = decoder.lexerStats
        print("ublox-zed-f9p_hpg1.11.log: \(lexer.jsonLine)")
        // An independent scan (Python, Fletcher check per packet; regular expression for
        // `$G....,...*HH CR LF`) finds 1963 UBX packets and 2620 sentences (655 each of
        // RMC, VTG, GGA, GLL).
        #expect(lexer.ubx == 1963, "\(lexer)")
        #expect(decoder.stats.decoded == 2620, "\(decoder.stats)")
        #expect(lexer.isConsistent && lexer.bytes == data.count)
        // The log starts mid-packet and has '#'-led binary lines: a little garbage, no more.
        #expect(lexer.garbageBytes < 2000, "\(lexer)")
        #expect(fixes.count == 655 && fixes.allSatisfy { $0.mode == .fix3D && $0.talker == .combined })
        #expect(decoder.binaryFixCount == 0)  // no NAV-PVT in this log
    }
}
