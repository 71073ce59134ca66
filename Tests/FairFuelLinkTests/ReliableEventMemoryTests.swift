import FairFuelCore
import FairFuelLink
import Testing

/// Revision 1.1's "each event once", host side: a copy of an NFC_TAG or POWER frame already
/// delivered in the last 60 s of the MCU's uptime is a repeat, whatever its seq.
@Suite struct ReliableEventMemoryTests {
    static let anna: [UInt8] = [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80]

    static func tap(_ stampMs: UInt32, uid: [UInt8] = anna, ndef: [UInt8] = [], seq: UInt16 = 0) -> Frame {
        Frame(seq: seq, message: .nfcTag(NFCTagReport(mcuTimeMs: stampMs, technology: .iso14443A, atqa: 0x44, sak: 0, uid: uid[...], ndef: ndef[...])))
    }

    static func power(_ stampMs: UInt32, on: Bool, seq: UInt16 = 0) -> Frame {
        Frame(seq: seq, message: .power(PowerReport(mcuTimeMs: stampMs, ignitionOn: on, supplyMillivolts: 12_400)))
    }

    static let hello = Frame(seq: 0, message: .hello(Hello(
        firmwareMajor: 1, firmwareMinor: 5, firmwarePatch: 0, boardID: 0x0101, capabilities: [.reliableEvents], uptimeMs: 250, name: "rev C")))

    /// Whether `memory` admits each frame, in order.
    static func answers(_ memory: inout ReliableEventMemory, _ frames: [Frame]) -> [Bool] {
        frames.map { memory.admit($0) }
    }

    @Test func aCopyWithANewSeqIsARepeatAndIsCounted() {
        var memory = ReliableEventMemory()
        let admitted = Self.answers(&memory, [Self.tap(66_000, seq: 10), Self.tap(66_000, seq: 14), Self.tap(66_000, seq: 19)])
        #expect(admitted == [true, false, false])
        #expect(memory.repeats == 2)
    }

    @Test func anyDifferenceInThePayloadIsANewEvent() {
        var memory = ReliableEventMemory()
        let admitted = Self.answers(&memory, [
            Self.tap(66_000),
            Self.tap(66_001),  // the same tag tapped again a millisecond later
            Self.tap(66_000, uid: [0x5A, 0x13, 0xC7, 0x92]),
            Self.tap(66_000, ndef: [0xD1, 0x01, 0x01, 0x55, 0x00]),
            Self.power(66_000, on: true),
            Self.power(66_000, on: false),
            Self.power(66_000, on: true),
        ])
        #expect(admitted == [true, true, true, true, true, true, false])
        #expect(memory.repeats == 1)
    }

    @Test func otherFramesAlwaysPass() {
        var memory = ReliableEventMemory()
        let beat = Frame(seq: 3, message: .heartbeat(Heartbeat(uptimeMs: 1_000, mcuDropped: 0, supplyMillivolts: 12_600, flags: 1)))
        #expect(Self.answers(&memory, [beat, beat]) == [true, true])
        #expect(memory.repeats == 0)
    }

    @Test func anEventIsRememberedForSixtySecondsOfUptime() {
        var memory = ReliableEventMemory()
        let admitted = Self.answers(&memory, [
            Self.tap(100_000),
            Self.power(160_000, on: true),  // a later event moves the window: the tap is 60 s old
            Self.tap(100_000),
            Self.power(160_001, on: false),
            Self.tap(100_000),  // 60.001 s old: forgotten, the same bytes are a new event
        ])
        #expect(admitted == [true, true, false, true, true])
    }

    @Test func theWindowCrossesTheUptimeWrap() {
        var memory = ReliableEventMemory()
        let beforeWrap = UInt32.max - 500
        let admitted = Self.answers(&memory, [
            Self.tap(beforeWrap),
            Self.power(1_000, on: true),  // 1.5 s later, after the wrap
            Self.tap(beforeWrap),  // a late copy from before the wrap: still a repeat
            Self.power(70_000, on: false),
            Self.tap(beforeWrap),  // 70 s after it: forgotten
        ])
        #expect(admitted == [true, true, false, true, true])
    }

    @Test func aHelloForgetsEverything() {
        var memory = ReliableEventMemory()
        // After a HELLO the MCU has forgotten its copies: the same bytes are a new event.
        #expect(Self.answers(&memory, [Self.tap(66_000), Self.hello, Self.tap(66_000)]) == [true, true, true])
        #expect(memory.repeats == 0)
    }

    @Test func aFullMemoryForgetsTheOldestFirst() {
        var memory = ReliableEventMemory(capacity: 4)
        let five = (UInt32(1_000)...1_004).map { Self.tap($0) }
        #expect(Self.answers(&memory, five) == [true, true, true, true, true])
        // Five events in four slots: the first is gone, the last four are still known.
        #expect(Self.answers(&memory, Array(five.dropFirst())) == [false, false, false, false])
        #expect(Self.answers(&memory, [five[0]]) == [true])
        #expect(memory.repeats == 4)
    }

    @Test func aLongRunKeepsTheLatestEventsInItsFixedSlots() {
        // A thousand events 100 ms apart (a card held on the reader): 600 fall in the 60 s
        // window, the fixed 32 slots keep the latest 32.
        var memory = ReliableEventMemory()
        let run = (UInt32(0)..<1_000).map { Self.tap($0 * 100) }
        #expect(Self.answers(&memory, run).allSatisfy { $0 })
        #expect(Self.answers(&memory, [Self.tap(999 * 100), Self.tap(968 * 100), Self.tap(967 * 100)]) == [false, false, true],
                "the 33rd latest no longer fits")
        #expect(memory.repeats == 2)
    }

    @Test func eventAckIsAHostFrameOfTwoBytes() throws {
        let wire = try FrameEncoder.encode(.eventAck(EventAck(ackedSeq: 0x1234)), seq: 7)
        var host = FrameDecoder(sender: .host)
        var frames: [Frame] = []
        host.decode(wire[...]) { if case let .frame(frame) = $0 { frames.append(frame) } }
        #expect(frames == [Frame(seq: 7, message: .eventAck(EventAck(ackedSeq: 0x1234)))])
        // Its body: version 1, type 0x82, seq 7, acked_seq 0x1234 little-endian.
        let body = try #require(COBS.decode(wire.dropLast()))
        #expect(Array(body.prefix(6)) == [0x01, 0x82, 0x07, 0x00, 0x34, 0x12])

        // A host-to-MCU type arriving from the MCU is unknown_type; a wrong length is bad_payload.
        var mcu = FrameDecoder(sender: .mcu)
        mcu.decode(wire[...]) { _ in }
        #expect(mcu.counters.unknownType == 1)
        var short = FrameDecoder(sender: .host)
        short.decode(FrameEncoder.encodeRaw(type: 0x82, seq: 8, payload: [0x34])[...]) { _ in }
        #expect(short.counters.badPayload == 1)
    }
}
