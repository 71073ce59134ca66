import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelServiceCore
import Foundation
import Testing

/// The core's half of revision 1.1, one frame at a time: every copy of a reliable event from an
/// MCU that set capability bit 5 gets an EVENT_ACK at once, outside the command tracker; the
/// event reaches the domain once. And a flood of taps costs a log line a minute, not one per tap.
@Suite struct ServiceCoreEventAckTests {
    typealias Bench = ServiceCoreTests.Bench
    static let reliable: MCUCapabilities = [.nfcReader, .bleScanner, .gnss, .nfcWrite, .reliableEvents]

    static func eventAcks(_ bench: Bench) -> [Frame] {
        bench.sent.filter { if case .eventAck = $0.message { true } else { false } }
    }

    static func starts(_ bench: Bench) -> Int {
        bench.stored.filter { if case .sessionStarted = $0 { true } else { false } }.count
    }


    static func status(_ bench: Bench, at ms: Int64) -> ServiceStatus {
        bench.core.status(at: LinkMilliseconds(ms))
    }

    @Test func everyCopyOfATapIsAcknowledgedAndTheTapDeliveredOnce() throws {
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10, capabilities: Self.reliable)
        bench.tap(ServiceCoreTests.annaTag, at: 1_000, mcuTimeMs: 2_000)  // the MCU's seq 1
        let first = Self.eventAcks(bench)
        #expect(first.map(\.message) == [.eventAck(EventAck(ackedSeq: 1))], "answered at once")
        // Our EVENT_ACK was lost: the MCU sends the same payload again as seq 2, 250 ms on.
        bench.tap(ServiceCoreTests.annaTag, at: 1_250, mcuTimeMs: 2_000)
        #expect(Self.eventAcks(bench).map(\.message) == [.eventAck(EventAck(ackedSeq: 1)), .eventAck(EventAck(ackedSeq: 2))])
        #expect(Self.starts(bench) == 1)
        #expect(bench.core.feedbackSent == [.sessionStarted], "one beep: a copy is not a second tap")
        // EVENT_ACKs are never resent: the MCU does not ACK them.
        for ms in stride(from: 1_300, through: 5_000, by: 100) { bench.pass(to: Int64(ms)) }
        #expect(Self.eventAcks(bench).count == 2)
        let status = Self.status(bench, at: 5_000)
        #expect(status.link.reliableEvents)
        #expect(status.link.eventAcks == 2)
        #expect(status.link.frames.eventRepeat == 1)
    }

    @Test func eventAcksTakeTheHostsNextSeqLikeEveryHostFrame() throws {
        let bench = try Bench()
        bench.open()  // HELLO_REQ seq 0, BLE_FILTER seq 1
        bench.hello(at: 10, capabilities: Self.reliable)
        bench.mcu(.power(PowerReport(mcuTimeMs: 1_500, ignitionOn: true, supplyMillivolts: 12_000)), at: 500)
        bench.tap(ServiceCoreTests.annaTag, at: 1_000, mcuTimeMs: 2_000)
        let seqs = bench.sent.map(\.seq)
        #expect(seqs == Array(0..<UInt16(seqs.count)), "\(bench.sent.map { "\($0.seq) \($0.message.jsonName)" })")
        #expect(bench.sent.map(\.message.jsonName).filter { $0 == "event_ack" }.count == 2)
    }

    @Test func anMCUWithoutBitFiveGetsNoEventAck() throws {
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10)  // capabilities without bit 5: revision 1.0
        bench.tap(ServiceCoreTests.annaTag, at: 1_000, mcuTimeMs: 2_000)
        bench.mcu(.power(PowerReport(mcuTimeMs: 2_500, ignitionOn: true, supplyMillivolts: 12_000)), at: 1_500)
        #expect(Self.eventAcks(bench).isEmpty)
        #expect(Self.starts(bench) == 1)
        #expect(Self.status(bench, at: 2_000).link.reliableEvents == false)
    }

    @Test func aNewHelloForgetsDeliveredEvents() throws {
        // An MCU that restarts forgets its waiting events, so the same bytes after its HELLO are a new tap.
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10, capabilities: Self.reliable)
        bench.tap(ServiceCoreTests.annaTag, at: 1_000, mcuTimeMs: 2_000)
        bench.hello(at: 1_100, uptimeMs: 100, capabilities: Self.reliable)
        bench.tap(ServiceCoreTests.annaTag, at: 1_200, mcuTimeMs: 2_000)
        #expect(bench.core.feedbackSent == [.sessionStarted, .accepted])
        #expect(bench.core.linkCounters.eventRepeat == 0)
    }

    @Test func aThousandTapsASecondCostALineAMinuteWithACount() throws {
        // A card held on the reader of an MCU that answers nothing: every tap wants a FEEDBACK,
        // the transmit queue (8 frames) stays full, and each refused command was once a log line.
        let bench = try Bench()
        bench.open()
        bench.hello(at: 10)
        for index in 0..<10_000 {
            bench.tap(ServiceCoreTests.annaTag, at: 1_000 + Int64(index), mcuTimeMs: 2_000 + UInt32(index))
            if index % 100 == 0 { bench.pass(to: 1_000 + Int64(index)) }
        }
        let during = bench.log.all.filter { $0.contains("transmit queue full") || $0.contains("not sent") }
        #expect(during.count == 1, "\(during.prefix(5))")
        #expect(Self.starts(bench) == 1, "the session stays sane: one start, the rest are Anna again")
        bench.pass(to: 75_000)
        let summaries = bench.log.all.filter { $0.contains("more command(s) 0xa1 not sent") }
        #expect(summaries.count == 1, "\(bench.log.all.suffix(5))")
        let counted = summaries.first.flatMap { Int($0.split(separator: " ").first { Int($0) != nil } ?? "") } ?? 0
        #expect(counted > 9_000, "\(summaries)")
        #expect(bench.log.all.count < 60, "\(bench.log.all.count) log lines")
    }
}
