import FairFuelCore
import FairFuelLink
import Testing
import TestSupport

/// Each receiver rule of PROTOCOL.md produces exactly its counter, and the stream recovers.
@Suite struct ReceiverRuleTests {
    static func raw(_ type: UInt8, seq: UInt16, _ payload: [UInt8], version: UInt8 = 1) -> [UInt8] {
        FrameEncoder.encodeRaw(version: version, type: type, seq: seq, payload: payload)
    }

    static func heartbeat(seq: UInt16) -> [UInt8] {
        raw(0x02, seq: seq, [0xE8, 0x03, 0, 0, 0, 0, 0x38, 0x31, 0x01])
    }

    static func nmea(_ sentence: [UInt8], seq: UInt16 = 1) -> [UInt8] {
        raw(0x10, seq: seq, [1, 0, 0, 0] + sentence)
    }

    static func counters(_ pairs: KeyValuePairs<String, UInt64>) -> LinkCounters {
        var c = LinkCounters()
        for (name, value) in pairs {
            switch name {
            case "frames": c.frames = value
            case "cobs_error": c.cobsError = value
            case "crc_error": c.crcError = value
            case "oversize": c.oversize = value
            case "bad_version": c.badVersion = value
            case "unknown_type": c.unknownType = value
            case "bad_payload": c.badPayload = value
            case "lost": c.lost = value
            case "duplicate": c.duplicate = value
            default: fatalError("no counter \(name)")
            }
        }
        return c
    }

    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var expected: LinkCounters
        var description: String { name }
    }

    static let hb = heartbeat(seq: 10)
    static var cases: [Case] {
        var body257 = [UInt8](repeating: 0x11, count: 257)
        body257[100] = 0  // a zero keeps the COBS encoding within 258 bytes
        let wire257 = COBS.encode(body257) + [0]
        var badCRC = heartbeat(seq: 10)
        badCRC[6] ^= 0x01
        return [
            Case(name: "clean heartbeat", bytes: hb, expected: counters(["frames": 1])),
            Case(name: "empty frames at start and between", bytes: [0, 0, 0] + hb + [0], expected: counters(["frames": 1])),
            Case(name: "259 bytes without 0x00", bytes: [UInt8](repeating: 0x42, count: 259) + [0] + hb,
                 expected: counters(["frames": 1, "oversize": 1])),
            Case(name: "5000 bytes without 0x00 counts once", bytes: [UInt8](repeating: 0x42, count: 5000) + [0] + hb,
                 expected: counters(["frames": 1, "oversize": 1])),
            Case(name: "01 00 decodes to nothing", bytes: [1, 0] + hb, expected: counters(["frames": 1, "cobs_error": 1])),
            Case(name: "COBS code overruns", bytes: [5, 0x11, 0x22, 0] + hb, expected: counters(["frames": 1, "cobs_error": 1])),
            Case(name: "5-byte body", bytes: COBS.encode([1, 2, 3, 4, 5]) + [0] + hb,
                 expected: counters(["frames": 1, "cobs_error": 1])),
            Case(name: "257-byte body", bytes: wire257 + hb, expected: counters(["frames": 1, "oversize": 1])),
            Case(name: "CRC mismatch", bytes: badCRC + hb, expected: counters(["frames": 1, "crc_error": 1, "duplicate": 0])),
            Case(name: "version 2", bytes: raw(0x02, seq: 9, [0xE8, 3, 0, 0, 0, 0, 0x38, 0x31, 1], version: 2) + hb,
                 expected: counters(["frames": 1, "bad_version": 1])),
            Case(name: "unknown type is delivered", bytes: raw(0x55, seq: 9, [1, 2, 3]) + hb,
                 expected: counters(["frames": 2, "unknown_type": 1])),
            Case(name: "host type from the MCU", bytes: raw(0xA1, seq: 9, [0]) + hb,
                 expected: counters(["frames": 2, "unknown_type": 1])),
            Case(name: "heartbeat 8 bytes", bytes: raw(0x02, seq: 9, [0, 0, 0, 0, 0, 0, 0, 0]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "heartbeat 10 bytes", bytes: raw(0x02, seq: 9, [UInt8](repeating: 0, count: 10)) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nmea without $", bytes: nmea(Array("GPGGA,1".utf8), seq: 9) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nmea empty sentence", bytes: nmea([], seq: 9) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nmea with CR LF", bytes: nmea(Array("$GPGGA,1\r\n".utf8), seq: 9) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nmea with 0x80", bytes: nmea(Array("$GPGGA,".utf8) + [0x80], seq: 9) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nmea 240 bytes is fine", bytes: nmea([0x24] + [UInt8](repeating: 0x41, count: 239), seq: 9) + hb,
                 expected: counters(["frames": 2])),
            Case(name: "nmea 241 bytes", bytes: nmea([0x24] + [UInt8](repeating: 0x41, count: 240), seq: 9) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "ble legacy with 32 data bytes", bytes: raw(0x20, seq: 9, [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0xC0] + [UInt8](repeating: 2, count: 32)) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "ble extended with 32 data bytes is fine", bytes: raw(0x20, seq: 9, [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 5, 0xC0] + [UInt8](repeating: 2, count: 32)) + hb,
                 expected: counters(["frames": 2])),
            Case(name: "ble addr_type 2", bytes: raw(0x20, seq: 9, [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 2, 0, 0xC0]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "ble adv_type 6", bytes: raw(0x20, seq: 9, [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 6, 0xC0]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nfc tech 4", bytes: raw(0x30, seq: 9, [0, 0, 0, 0, 4, 0x44, 0, 0, 4, 1, 2, 3, 4]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nfc 14443A uid_len 5", bytes: raw(0x30, seq: 9, [0, 0, 0, 0, 0, 0x44, 0, 0, 5, 1, 2, 3, 4, 5]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nfc 14443B uid_len 7", bytes: raw(0x30, seq: 9, [0, 0, 0, 0, 1, 0, 0, 0, 7, 1, 2, 3, 4, 5, 6, 7]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nfc uid longer than payload", bytes: raw(0x30, seq: 9, [0, 0, 0, 0, 0, 0x44, 0, 0, 7, 1, 2, 3]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "nfc felica 8 with ndef", bytes: raw(0x30, seq: 9, [0, 0, 0, 0, 2, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0xD0, 0, 0]) + hb,
                 expected: counters(["frames": 2])),
            Case(name: "power ignition 2", bytes: raw(0x40, seq: 9, [0, 0, 0, 0, 2, 0, 0]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "log level 4", bytes: raw(0x7D, seq: 9, [4, 0x41]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "log empty", bytes: raw(0x7D, seq: 9, []) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "ack status 6", bytes: raw(0x7F, seq: 9, [1, 0, 6]) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "hello name 33 bytes", bytes: raw(0x01, seq: 9, [UInt8](repeating: 0, count: 11) + [UInt8](repeating: 0x41, count: 33)) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "hello 10 bytes", bytes: raw(0x01, seq: 9, [UInt8](repeating: 0, count: 10)) + hb,
                 expected: counters(["frames": 1, "bad_payload": 1])),
            Case(name: "gap of three", bytes: heartbeat(seq: 1) + heartbeat(seq: 5),
                 expected: counters(["frames": 2, "lost": 3])),
            Case(name: "wrap 65535 to 0", bytes: heartbeat(seq: 65535) + heartbeat(seq: 0),
                 expected: counters(["frames": 2])),
            Case(name: "gap across the wrap", bytes: heartbeat(seq: 65534) + heartbeat(seq: 1),
                 expected: counters(["frames": 2, "lost": 2])),
            Case(name: "backwards counts as a gap mod 65536", bytes: heartbeat(seq: 10) + heartbeat(seq: 8),
                 expected: counters(["frames": 2, "lost": 65533])),
            Case(name: "duplicate", bytes: heartbeat(seq: 3) + heartbeat(seq: 3) + heartbeat(seq: 4),
                 expected: counters(["frames": 2, "duplicate": 1])),
            Case(name: "first frame of a stream is not compared", bytes: heartbeat(seq: 5000),
                 expected: counters(["frames": 1])),
            Case(name: "HELLO restarts the count",
                 bytes: heartbeat(seq: 100) + raw(0x01, seq: 0, [1, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0]) + heartbeat(seq: 1),
                 expected: counters(["frames": 3])),
            Case(name: "HELLO with the last seq is not a duplicate",
                 bytes: heartbeat(seq: 7) + raw(0x01, seq: 7, [1, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0]),
                 expected: counters(["frames": 2])),
            Case(name: "bad HELLO still restarts the count",
                 bytes: heartbeat(seq: 100) + raw(0x01, seq: 0, [1]) + heartbeat(seq: 1),
                 expected: counters(["frames": 2, "bad_payload": 1])),
            Case(name: "HELLO of version 2 still restarts the count",
                 bytes: heartbeat(seq: 100) + raw(0x01, seq: 0, [1, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0], version: 2) + heartbeat(seq: 1),
                 expected: counters(["frames": 2, "bad_version": 1])),
            Case(name: "bad version feeds the sequence check",
                 bytes: heartbeat(seq: 1) + raw(0x02, seq: 2, [0], version: 9) + heartbeat(seq: 2) + heartbeat(seq: 3),
                 expected: counters(["frames": 2, "bad_version": 1, "duplicate": 1])),
            Case(name: "CRC failure does not feed the sequence check",
                 bytes: heartbeat(seq: 1) + { var f = heartbeat(seq: 2); f[3] ^= 0x10; return f }() + heartbeat(seq: 2),
                 expected: counters(["frames": 2, "crc_error": 1])),
            Case(name: "bad payload feeds the sequence check",
                 bytes: heartbeat(seq: 1) + raw(0x02, seq: 2, [0]) + heartbeat(seq: 3),
                 expected: counters(["frames": 2, "bad_payload": 1])),
            Case(name: "oversize body does not feed the sequence check",
                 bytes: heartbeat(seq: 1) + wire257 + heartbeat(seq: 2),
                 expected: counters(["frames": 2, "oversize": 1])),
        ]
    }

    @Test(arguments: cases)
    func ruleProducesItsCounter(testCase: Case) {
        for chunking in Chunking.all {
            let (outputs, counters) = decodeAll(testCase.bytes, chunking: chunking)
            #expect(counters == testCase.expected, "\(testCase.name), \(chunking)")
            // The stream recovers: the last frame of every case is delivered.
            if case .frame = outputs.last {} else {
                Issue.record("\(testCase.name): last output is \(String(describing: outputs.last))")
            }
        }
    }

    @Test func oversizeIsCountedWhenThe259thByteArrives() {
        var decoder = FrameDecoder(sender: .mcu)
        decoder.decode([UInt8](repeating: 0x42, count: 258)) { _ in }
        #expect(decoder.counters.oversize == 0)
        decoder.decode([0x42]) { _ in }
        #expect(decoder.counters.oversize == 1)
        decoder.decode([UInt8](repeating: 0x42, count: 1000)) { _ in }
        #expect(decoder.counters.oversize == 1)
    }

    @Test func unfinishedFrameAtEndIsNotCounted() {
        var decoder = FrameDecoder(sender: .mcu)
        let wire = Self.heartbeat(seq: 1)
        decoder.decode(wire.dropLast(3)) { _ in Issue.record("nothing should be delivered") }
        #expect(decoder.hasUnfinishedFrame)
        let hadUnfinished = decoder.finish()
        #expect(hadUnfinished)
        #expect(decoder.counters == LinkCounters())
        // After finish, a new stream starts clean.
        var delivered = 0
        decoder.decode(wire) { if case .frame = $0 { delivered += 1 } }
        #expect(delivered == 1)
    }

    @Test func duplicateIsReportedWithItsSeq() {
        let (outputs, _) = decodeAll(Self.heartbeat(seq: 3) + Self.heartbeat(seq: 3))
        #expect(outputs.last == .duplicate(seq: 3, rawType: 0x02))
    }

    @Test func mcuSideRestartsOnHelloRequest() {
        let helloRequest = Self.raw(0x81, seq: 0, [1, 0])
        let feedback = Self.raw(0xA1, seq: 1, [0])
        // A host that restarted sends HELLO_REQ with seq 0 again after having sent seq 0 before.
        let bytes = helloRequest + feedback + helloRequest + feedback
        let (_, counters) = decodeAll(bytes, sender: .host)
        #expect(counters == Self.counters(["frames": 4]))
    }

    @Test func bootloaderWithWrongMagicIsBadPayload() {
        let (_, counters) = decodeAll(Self.raw(0xB0, seq: 0, Array("FLSX".utf8)), sender: .host)
        #expect(counters == Self.counters(["bad_payload": 1]))
    }

    @Test func bleFilterOverSixteenEntriesIsBadPayload() {
        let payload = [17] + [UInt8](repeating: 0, count: 17 * 7)
        let (_, counters) = decodeAll(Self.raw(0x90, seq: 0, payload), sender: .host)
        #expect(counters == Self.counters(["bad_payload": 1]))
    }

    @Test func invalidUTF8InTextIsReplaced() throws {
        let wire = Self.raw(0x7D, seq: 0, [1, 0x41, 0xFF, 0x42])
        let frame = try #require(frames(decodeAll(wire).outputs).first)
        guard case let .log(log) = frame.message else {
            Issue.record("expected log")
            return
        }
        #expect(log.text == "A\u{FFFD}B")
    }
}
