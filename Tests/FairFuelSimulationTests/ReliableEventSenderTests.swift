@testable import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelCore
import FairFuelLink
import Testing

/// The MCU's side of revision 1.1's reliable events, as PROTOCOL.md writes it: copies every
/// 250 ms up to 8, an EVENT_ACK for any copy settles, at most 8 wait, and a host that answers
/// none of the first event's copies is an older one.
@Suite struct ReliableEventSenderTests {
    static func tap(_ stampMs: UInt32) -> LinkMessage {
        MCUTrafficGenerator.tag(uptimeMs: stampMs, uid: [0x04, 0xA2, 0x2B, 0x7A, 0x3C, 0x5D, 0x80][...])
    }

    /// Plays the sender from `fromMs` to `toMs` in 10 ms steps; every copy gets the next seq.
    static func play(_ sender: inout ReliableEventSender, from fromMs: Int64, to toMs: Int64, seq: inout UInt16) -> [(ms: Int64, seq: UInt16, message: LinkMessage)] {
        var sent: [(ms: Int64, seq: UInt16, message: LinkMessage)] = []
        for ms in stride(from: fromMs, through: toMs, by: 10) {
            for copy in sender.takeDue(at: ms) {
                sender.copySent(copy.serial, seq: seq)
                sent.append((ms, seq, copy.message))
                seq &+= 1
            }
        }
        return sent
    }

    @Test func anUnansweredEventIsSentEightTimes250msApart() {
        var sender = ReliableEventSender(enabled: true)
        var seq: UInt16 = 5
        #expect(sender.sent(Self.tap(1_000), seq: seq, at: 0) == 0)
        seq += 1
        let copies = Self.play(&sender, from: 0, to: 5_000, seq: &seq)
        #expect(copies.map(\.ms) == [250, 500, 750, 1_000, 1_250, 1_500, 1_750])
        #expect(copies.allSatisfy { $0.message == Self.tap(1_000) }, "every copy carries the same payload, the same t_ms")
        #expect(Set(copies.map(\.seq)).count == 7, "each copy is a new frame with its own seq")
        #expect(sender.givenUp == 1)
        #expect(sender.hostIsOlder, "no EVENT_ACK for the first event: an older host")
        // Later events go out once.
        #expect(sender.sent(Self.tap(9_000), seq: seq, at: 8_000) == 0)
        #expect(Self.play(&sender, from: 8_000, to: 12_000, seq: &seq).isEmpty)
    }

    @Test func anEventAckForAnyCopySettlesTheEvent() {
        var sender = ReliableEventSender(enabled: true)
        var seq: UInt16 = 0
        _ = sender.sent(Self.tap(1_000), seq: 0, at: 0)
        seq = 1
        let copies = Self.play(&sender, from: 0, to: 600, seq: &seq)
        #expect(copies.count == 2)
        sender.acknowledged(0)  // the first copy's late answer
        #expect(sender.nextDue == nil)
        #expect(sender.settled == 1)
        #expect(!sender.hostIsOlder)
        #expect(Self.play(&sender, from: 600, to: 3_000, seq: &seq).isEmpty)
        // An EVENT_ACK for a seq nothing waits for changes nothing.
        sender.acknowledged(999)
        #expect(sender.settled == 1)
    }

    @Test func aNinthWaitingEventPushesTheOldestOut() {
        var sender = ReliableEventSender(enabled: true)
        _ = sender.sent(Self.tap(500), seq: 100, at: 0)
        sender.acknowledged(100)  // the host answers: it speaks revision 1.1
        var dropped = 0
        for index in 0..<9 { dropped += sender.sent(Self.tap(1_000 + UInt32(index)), seq: UInt16(index), at: Int64(index)) }
        #expect(dropped == 1, "counted in HEARTBEAT's mcu_dropped")
        #expect(sender.overflowed == 1)
        var seq: UInt16 = 50
        let copies = Self.play(&sender, from: 0, to: 260, seq: &seq)
        #expect(copies.count == 8)
        #expect(!copies.contains { $0.message == Self.tap(1_000) }, "the oldest was given up")
    }

    @Test func aHelloForgetsWhatWaitedAndProbesTheHostAgain() {
        var sender = ReliableEventSender(enabled: true)
        var seq: UInt16 = 1
        _ = sender.sent(Self.tap(1_000), seq: 0, at: 0)
        _ = Self.play(&sender, from: 0, to: 3_000, seq: &seq)
        #expect(sender.hostIsOlder)
        sender.helloSent()
        #expect(!sender.hostIsOlder)
        _ = sender.sent(Self.tap(5_000), seq: seq, at: 4_000)
        #expect(sender.nextDue == 4_250)
        sender.helloSent()
        #expect(sender.nextDue == nil)
    }

    @Test func withoutBitFiveNothingIsKept() {
        var sender = ReliableEventSender(enabled: false)
        #expect(sender.sent(Self.tap(1_000), seq: 0, at: 0) == 0)
        #expect(sender.nextDue == nil)
        #expect(!sender.repeats)
    }

    @Test func theVirtualMCUAloneFallsBackAfterTheFirstTapAndItsDriverTapsAgain() throws {
        // No host at all: the first tap goes out 8 times and gets no EVENT_ACK, so later events go
        // out once; Anna hears no beep and taps twice more, 3 s apart.
        let plan = try SimPlanner.plan(try SimFixture.shipped("short-drive.scenario"))
        var core = VirtualMCUCore(plan: plan)
        let played = VirtualMCUCoreTests.play(plan, untilMs: plan.endMs, core: &core)
        let tags = played.frames.compactMap { $0.frame.message.nfcTag }
        #expect(tags.count == 8 + 2, "\(tags.map(\.mcuTimeMs))")
        #expect(Set(tags.prefix(8).map(\.mcuTimeMs)).count == 1, "the first eight are copies of one tap")
        #expect(tags[8].mcuTimeMs - tags[0].mcuTimeMs == 3_000)
        #expect(tags[9].mcuTimeMs - tags[8].mcuTimeMs == 3_000)
        #expect(core.statistics.retaps == 2)
        let powers = played.frames.compactMap { $0.frame.message.power }
        #expect(powers.count == Set(powers.map(\.mcuTimeMs)).count, "ignition changes after the fallback go out once")
        #expect(core.reliable.hostIsOlder)
    }
}
