import FairFuelCore
import FairFuelLink
import Testing

@Suite struct CommandTrackerTests {
    static func t(_ ms: Int64) -> LinkMilliseconds { LinkMilliseconds(ms) }

    @Test func acknowledgedCommandIsNotResent() throws {
        var tracker = CommandTracker(capacity: 4)
        var outcomes: [CommandOutcome] = []
        let sent = try #require(tracker.send(.feedback(.accepted), at: Self.t(0)) { outcomes.append($0) })
        #expect(sent.seq == 0)
        #expect(sent.wire == (try FrameEncoder.encode(.feedback(.accepted), seq: 0)))
        tracker.acknowledge(Ack(ackedSeq: 0, status: .ok)) { outcomes.append($0) }
        var resent: [[UInt8]] = []
        tracker.due(at: Self.t(2_000), resend: { resent.append($0) }) { outcomes.append($0) }
        #expect(resent.isEmpty)
        #expect(outcomes == [.acknowledged(seq: 0, type: 0xA1, status: .ok)])
        #expect(tracker.outstanding == 0)
    }

    @Test func unansweredCommandIsResentThreeTimesWithTheSameSeqThenGivenUp() throws {
        var tracker = CommandTracker(capacity: 4)
        var outcomes: [CommandOutcome] = []
        let wire = try #require(tracker.send(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)), at: Self.t(0)) { outcomes.append($0) }).wire
        var resent: [[UInt8]] = []
        for ms in stride(from: Int64(100), through: 3_000, by: 100) {
            tracker.due(at: Self.t(ms), resend: { resent.append($0) }) { outcomes.append($0) }
        }
        #expect(resent == [wire, wire, wire])
        #expect(outcomes == [.unanswered(seq: 0, type: 0x81)])
        #expect(tracker.outstanding == 0)
        #expect(tracker.resentCount == 3)
    }

    @Test func lateAckAfterAResendStillCompletesOnce() throws {
        var tracker = CommandTracker(capacity: 4)
        var outcomes: [CommandOutcome] = []
        _ = tracker.send(.feedback(.rejected), at: Self.t(0)) { outcomes.append($0) }
        tracker.due(at: Self.t(600), resend: { _ in }) { outcomes.append($0) }
        tracker.acknowledge(Ack(ackedSeq: 0, status: .ok)) { outcomes.append($0) }
        tracker.acknowledge(Ack(ackedSeq: 0, status: .ok)) { outcomes.append($0) }  // the MCU re-ACKs the resend
        #expect(outcomes == [.acknowledged(seq: 0, type: 0xA1, status: .ok)])
    }

    @Test func nextSeqIsTheSeqTheNextCommandCarries() throws {
        var tracker = CommandTracker(capacity: 4)
        #expect(tracker.nextSeq == 0)
        _ = tracker.send(.helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)), at: Self.t(0)) { _ in }
        #expect(tracker.nextSeq == 1)
        var outcomes: [CommandOutcome] = []
        let sent = try #require(tracker.send(.bootloader, at: Self.t(10)) { outcomes.append($0) })
        #expect(sent.seq == 1)
        #expect(sent.wire == (try FrameEncoder.encode(.bootloader, seq: 1)))
        tracker.acknowledge(Ack(ackedSeq: 1, status: .failed)) { outcomes.append($0) }
        #expect(outcomes == [.acknowledged(seq: 1, type: LinkMessage.bootloader.rawType, status: .failed)])
        #expect(tracker.nextSeq == 2)
    }

    @Test func fullQueueRefuses() {
        var tracker = CommandTracker(capacity: 2)
        var outcomes: [CommandOutcome] = []
        for _ in 0..<3 { _ = tracker.send(.feedback(.accepted), at: Self.t(0)) { outcomes.append($0) } }
        #expect(outcomes == [.refused(type: 0xA1)])
        #expect(tracker.outstanding == 2)
        #expect(tracker.millisecondsUntilDue(at: Self.t(200)) == 300)
    }

    /// The seq handed back with each frame is the one its wire carries, through the 65535 -> 0
    /// wrap and for EVENT_ACKs too: nothing needs to decode the tracker's own output.
    @Test func handedBackSeqIsTheSeqOnTheWire() throws {
        var tracker = CommandTracker(capacity: 2)
        var decoder = FrameDecoder(sender: .host)
        for round in 0..<70_000 {
            let sent: (seq: UInt16, wire: [UInt8])
            if round % 3 == 0 {
                sent = try #require(tracker.send(.feedback(.accepted), at: Self.t(Int64(round))) { _ in })
                tracker.acknowledge(Ack(ackedSeq: sent.seq, status: .ok)) { _ in }
            } else {
                let framed = tracker.frameUnacknowledged(.eventAck(EventAck(ackedSeq: UInt16(truncatingIfNeeded: round))))
                sent = try #require(framed)
            }
            #expect(sent.seq == UInt16(truncatingIfNeeded: round))
            guard round % 997 == 0 || round >= 65_530 && round <= 65_540 else { continue }
            var seqs: [UInt16] = []
            decoder.restartStream()
            decoder.decode(sent.wire) { if case let .frame(frame) = $0 { seqs.append(frame.seq) } }
            #expect(seqs == [sent.seq], "round \(round)")
        }
    }
}
