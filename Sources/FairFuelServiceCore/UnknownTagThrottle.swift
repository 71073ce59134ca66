import FairFuelCore
import FairFuelParsers

/// The one rule for unknown taps: which get a log line and which reach the store's event log.
///
/// A card held on the reader or tapped again and again is one event-log row per `repeatMs`, and
/// any run of taps at most one row per `spacingMs`, so that a child with a bank card cannot fill
/// the event log and wear the card with a synced write per tap. Log lines are one a minute of
/// host time, then a count of the rest.
public struct UnknownTagThrottle: Sendable {
    /// What to do with one unknown tap.
    public struct Decision: Equatable, Sendable {
        /// Whether the tap gets its log line (and how many went without one before it).
        public var line: RateLimitedLog<UInt8>.Admission
        /// Whether the tap is written to the store's event log.
        public var record: Bool
    }

    static let remembered = 8
    static let repeatMs: Int64 = 600_000
    static let spacingMs: Int64 = 60_000

    private var lines = RateLimitedLog<UInt8>()
    /// Taps written to the event log lately, at most `remembered`, by link time.
    private var recorded: [(uid: TagUID, at: LinkMilliseconds)] = []
    /// Taps not written to the event log by this rule.
    public private(set) var notRecorded = 0

    public init() {
        recorded.reserveCapacity(Self.remembered)
    }

    /// Decides for the tap of `uid` at link time `at`, heard at host time `nowMs`.
    public mutating func admit(_ uid: TagUID, at: LinkMilliseconds, nowMs: Int64) -> Decision {
        Decision(line: lines.admit(0, nowMs: nowMs), record: shouldRecord(uid, at: at))
    }

    /// Hands over the count of taps without a log line in a minute that has ended.
    public mutating func drainSummaries(nowMs: Int64, _ body: (Int) -> Void) {
        lines.drainSummaries(nowMs: nowMs) { _, count in body(count) }
    }

    private mutating func shouldRecord(_ uid: TagUID, at: LinkMilliseconds) -> Bool {
        let recent = { (earlier: LinkMilliseconds, limit: Int64) in at.value >= earlier.value && at.value - earlier.value < limit }
        if recorded.contains(where: { $0.uid == uid && recent($0.at, Self.repeatMs) })
            || recorded.last.map({ recent($0.at, Self.spacingMs) }) == true {
            notRecorded += 1
            return false
        }
        if recorded.count == Self.remembered { recorded.removeFirst() }
        recorded.append((uid, at))
        return true
    }
}
