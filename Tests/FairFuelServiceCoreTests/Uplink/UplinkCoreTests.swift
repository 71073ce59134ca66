import FairFuelCore
import FairFuelServiceCore
import Testing

/// The uplink's decisions with plain numbers: the token bucket refills by the times handed in,
/// the in-flight window bounds what awaits a PUBACK, and a reconnect sends again from the oldest.
@Suite struct UplinkCoreTests {
    /// Publishes what the core lets out of an outbox of ids `pending` (oldest first), numbering
    /// the client's message ids from `firstMessageID`; returns the outbox ids published.
    static func pump(_ core: inout UplinkCore, pending: [Int64], nowMs: Int64, firstMessageID: Int32 = 1) -> [Int64] {
        guard let read = core.outboxRead(nowMs: nowMs) else { return [] }
        let found = pending.filter { read.after == nil || $0 > read.after!.rawValue }.prefix(read.limit)
        var published: [Int64] = []
        for (offset, id) in found.prefix(core.outboxFound(found.count, nowMs: nowMs)).enumerated() {
            core.published(OutboxMessageID(id), as: firstMessageID + Int32(offset))
            published.append(id)
        }
        return published
    }

    @Test func theBucketLetsOutItsRateThenRefillsByTheTimesHandedIn() {
        var core = UplinkCore(publishPerSecond: 5)
        core.start(nowMs: 1_000)
        let outbox = Array(Int64(1)...40)
        let first = Self.pump(&core, pending: outbox, nowMs: 1_000)
        #expect(first == [1, 2, 3, 4, 5])
        #expect(core.millisecondsUntilToken() == 200, "a backlog waits for the next token")
        let halfToken = Self.pump(&core, pending: outbox, nowMs: 1_100, firstMessageID: 10)
        #expect(halfToken.isEmpty, "half a token is none")
        #expect(core.millisecondsUntilToken() == 100)
        let oneToken = Self.pump(&core, pending: outbox, nowMs: 1_200, firstMessageID: 10)
        #expect(oneToken == [6])
        // Acknowledged, so that the window is not what limits; ten idle seconds refill five tokens, not fifty.
        for messageID in Int32(1)...5 { _ = core.acknowledge(messageID: messageID, reasonCode: 0) }
        _ = core.acknowledge(messageID: 10, reasonCode: 0)
        let refilled = Self.pump(&core, pending: outbox, nowMs: 11_200, firstMessageID: 20)
        #expect(refilled == [7, 8, 9, 10, 11])
        #expect(core.acknowledged == 6)
    }

    @Test func theInflightWindowHoldsBackWhatAwaitsAPuback() {
        var core = UplinkCore(publishPerSecond: 100)
        core.start(nowMs: 0)
        let outbox = Array(Int64(1)...40)
        let windowFull = Self.pump(&core, pending: outbox, nowMs: 10_000)
        #expect(windowFull.count == UplinkCore.inflightWindow)
        let noRoom = Self.pump(&core, pending: outbox, nowMs: 20_000, firstMessageID: 100)
        #expect(noRoom.isEmpty, "tokens, but no room in the window")
        let puback = core.acknowledge(messageID: 1, reasonCode: 0)
        #expect(puback == .delivered(OutboxMessageID(1)))
        let oneFreed = Self.pump(&core, pending: outbox, nowMs: 20_001, firstMessageID: 100)
        #expect(oneFreed == [17])
    }

    @Test func aDisconnectAbandonsWhatWasInFlightAndTheReconnectSendsItAgain() {
        var core = UplinkCore(publishPerSecond: 10)
        core.start(nowMs: 0)
        let outbox: [Int64] = [4, 5, 6]
        let published = Self.pump(&core, pending: outbox, nowMs: 0)
        #expect(published == [4, 5, 6])
        let puback = core.acknowledge(messageID: 1, reasonCode: 0)
        #expect(puback == .delivered(OutboxMessageID(4)))
        #expect(core.inflightCount == 2)
        let said = core.disconnected(failure: "connection lost")
        #expect(said, "a new failure is said")
        let saidAgain = core.disconnected(failure: "connection lost")
        #expect(!saidAgain, "the same failure again is not")
        #expect(core.inflightCount == 0)
        let stale = core.acknowledge(messageID: 2, reasonCode: 0)
        #expect(stale == nil, "a PUBACK of the dropped connection means nothing")
        core.connected()
        // Message 4 is marked sent by now; 5 and 6 go again, from the oldest pending.
        let read = core.outboxRead(nowMs: 1_000)
        #expect(read?.after == nil && read?.limit == 11)
        let saidAfterConnect = core.disconnected(failure: "connection lost")
        #expect(saidAfterConnect, "after a connect the failure is news again")
    }

    @Test func aRefusedMessageStaysAndIsCounted() {
        var core = UplinkCore(publishPerSecond: 10)
        core.start(nowMs: 0)
        _ = Self.pump(&core, pending: [1, 2], nowMs: 0)
        let refused = core.acknowledge(messageID: 1, reasonCode: 0x87)
        #expect(refused == .refused(OutboxMessageID(1), reasonCode: 0x87))
        let delivered = core.acknowledge(messageID: 2, reasonCode: 0)
        #expect(delivered == .delivered(OutboxMessageID(2)))
        #expect(core.rejected == 1 && core.acknowledged == 1)
        let notOurs = core.acknowledge(messageID: 99, reasonCode: 0)
        #expect(notOurs == nil, "the status message carries no outbox message")
    }

    @Test func anEmptyOutboxIsReadAgainASecondLaterOrWhenRecordsAreQueued() {
        var core = UplinkCore(publishPerSecond: 10)
        core.start(nowMs: 0)
        let published = Self.pump(&core, pending: [], nowMs: 0)
        #expect(published.isEmpty)
        let tooSoon = core.outboxRead(nowMs: 999)
        #expect(tooSoon == nil)
        let aSecondLater = core.outboxRead(nowMs: 1_000)
        #expect(aSecondLater != nil)
        _ = core.outboxFound(0, nowMs: 1_000)
        let readAgainTooSoon = core.outboxRead(nowMs: 1_001)
        #expect(readAgainTooSoon == nil)
        core.recordsQueued()
        let afterQueued = core.outboxRead(nowMs: 1_001)
        #expect(afterQueued != nil)
        #expect(core.millisecondsUntilToken() == nil, "no backlog, no wake-up for tokens")
    }
}
