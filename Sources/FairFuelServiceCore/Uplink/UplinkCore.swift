import FairFuelCore

/// The uplink's decisions without the broker or the store: what to publish from the outbox and
/// when (a token bucket of `publishPerSecond`, at most `inflightWindow` messages awaiting their
/// PUBACK), and what a PUBACK, a connect or a disconnect means. Times are handed in (milliseconds
/// of a monotonic clock); the shell reads the outbox, publishes and marks messages sent.
///
/// A connection that drops abandons what was in flight: publishing starts again from the oldest
/// pending message after the next CONNACK (a consumer drops duplicates by `message_id`).
public struct UplinkCore: Sendable {
    /// What to read from the outbox: pending messages after `after` (nil: from the oldest), at most `limit`.
    public struct OutboxRead: Equatable, Sendable {
        public var after: OutboxMessageID?
        public var limit: Int
    }

    /// What a PUBACK means for the outbox.
    public enum Acknowledgement: Equatable, Sendable {
        /// The broker has it: mark it sent.
        case delivered(OutboxMessageID)
        /// The broker refused it (reason code 0x80 or more): it stays in the outbox.
        case refused(OutboxMessageID, reasonCode: Int32)
    }

    public let publishPerSecond: Int
    /// Most messages awaiting their PUBACK at once.
    public static let inflightWindow = 16
    /// How long an outbox found empty is trusted to stay empty without `recordsQueued`: a busy
    /// link wakes the loop hundreds of times a second, and the outbox changes far less often.
    public static let idleReadIntervalMs: Int64 = 1_000

    /// The client's message id → the outbox message it carries, on this connection.
    private var inflight: [Int32: OutboxMessageID] = [:]
    /// The newest outbox message published on this connection; the next comes after it.
    private var lastPublished: OutboxMessageID?
    /// The token bucket: messages that may go now, refilled at `publishPerSecond` up to that many.
    private var tokens: Double
    private var tokensAtMs: Int64 = 0
    /// The last read found more to publish than the bucket or the in-flight window let out.
    private var backlog = false
    /// With nothing pending, the outbox is read again only after this (or after `recordsQueued`).
    private var nextIdleReadMs: Int64 = .min
    /// The failure last reported, so that a broker down for days is one log line, not one per attempt.
    private var reportedFailure: String?
    public private(set) var acknowledged: UInt64 = 0
    public private(set) var rejected: UInt64 = 0

    public init(publishPerSecond: Int) {
        self.publishPerSecond = max(1, publishPerSecond)
        tokens = Double(self.publishPerSecond)
        inflight.reserveCapacity(Self.inflightWindow)
    }

    /// Messages awaiting their PUBACK.
    public var inflightCount: Int { inflight.count }

    /// The bucket starts filling at `nowMs`.
    public mutating func start(nowMs: Int64) { tokensAtMs = nowMs }

    /// Records were written (a trip closed, a reload after a refuel): read the outbox at the next chance.
    public mutating func recordsQueued() { nextIdleReadMs = .min }

    /// While a backlog waits on the bucket, how long until its next token (at least 1 ms); nil without one.
    public func millisecondsUntilToken() -> Int64? {
        guard backlog else { return nil }
        return max(1, Int64((1 - min(tokens, 1)) * 1_000 / Double(publishPerSecond)))
    }

    /// On a connected client at `nowMs`: what to read from the outbox, or nil when nothing may go
    /// (the bucket or the window is empty) or the outbox was found empty too recently.
    public mutating func outboxRead(nowMs: Int64) -> OutboxRead? {
        guard backlog || nowMs >= nextIdleReadMs else { return nil }
        let rate = Double(publishPerSecond)
        tokens = min(rate, tokens + Double(max(0, nowMs - tokensAtMs)) * rate / 1_000)
        tokensAtMs = nowMs
        guard room > 0 else {
            backlog = true
            return nil
        }
        // One more than may go: whether a backlog remains.
        return OutboxRead(after: lastPublished, limit: room + 1)
    }

    /// The read asked for by `outboxRead` found `count` messages at `nowMs`: how many of them,
    /// oldest first, to publish now.
    public mutating func outboxFound(_ count: Int, nowMs: Int64) -> Int {
        let publishing = min(count, room)
        backlog = count > publishing
        nextIdleReadMs = count == 0 ? nowMs + Self.idleReadIntervalMs : .min
        return publishing
    }

    /// The client took outbox message `id` as its message `messageID`: it awaits its PUBACK.
    public mutating func published(_ id: OutboxMessageID, as messageID: Int32) {
        inflight[messageID] = id
        lastPublished = id
        tokens -= 1
    }

    /// A PUBACK for the client's `messageID`; nil when it carried no outbox message (the status topic, Home Assistant).
    public mutating func acknowledge(messageID: Int32, reasonCode: Int32) -> Acknowledgement? {
        guard let id = inflight.removeValue(forKey: messageID) else { return nil }
        guard reasonCode < 0x80 else {
            rejected += 1
            return .refused(id, reasonCode: reasonCode)
        }
        acknowledged += 1
        return .delivered(id)
    }

    /// A CONNACK: everything pending goes again from the oldest, at once.
    public mutating func connected() {
        nextIdleReadMs = .min
        abandonInflight()
        reportedFailure = nil
    }

    /// The connection dropped (`failure` describes why): what was in flight goes again after the
    /// next CONNACK. True when the failure differs from the last one reported: say it.
    public mutating func disconnected(failure: String) -> Bool {
        abandonInflight()
        guard failure != reportedFailure else { return false }
        reportedFailure = failure
        return true
    }

    private mutating func abandonInflight() {
        inflight.removeAll(keepingCapacity: true)
        lastPublished = nil
    }

    /// Messages that may go now: whole tokens, within the in-flight window.
    private var room: Int { min(Int(tokens), Self.inflightWindow - inflight.count) }
}
