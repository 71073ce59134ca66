/// Rate limiting per kind of log line: the first event of a kind gets its line, the rest of
/// the minute are counted, and the count is logged once the minute is over. A babbling cable
/// or a flood of bad requests costs a line a minute, not one per event. Times are injected
/// (milliseconds of any monotonic clock).
public struct RateLimitedLog<Kind: Hashable & Sendable>: Sendable {
    /// What to do with one event.
    public enum Admission: Equatable, Sendable {
        /// Log it; `suppressedBefore` events of this kind went unlogged in the window before.
        case line(suppressedBefore: Int)
        /// Counted, not logged.
        case counted
    }

    public let intervalMs: Int64
    private var windows: [Kind: (startMs: Int64, suppressed: Int)] = [:]

    public init(intervalMs: Int64 = 60_000) {
        self.intervalMs = max(1, intervalMs)
    }

    /// Decides for one event of `kind` at `nowMs`.
    public mutating func admit(_ kind: Kind, nowMs: Int64) -> Admission {
        guard let window = windows[kind], nowMs - window.startMs < intervalMs else {
            let before = windows[kind]?.suppressed ?? 0
            windows[kind] = (nowMs, 0)
            return .line(suppressedBefore: before)
        }
        windows[kind]!.suppressed += 1
        return .counted
    }

    /// Hands over the counts of windows that have ended with events unlogged (one line each,
    /// "N more in the last minute"), and clears them.
    public mutating func drainSummaries(nowMs: Int64, _ body: (Kind, Int) -> Void) {
        for (kind, window) in windows where window.suppressed > 0 && nowMs - window.startMs >= intervalMs {
            body(kind, window.suppressed)
            windows[kind]!.suppressed = 0
        }
    }

    /// Events counted but not yet logged, per kind.
    public func pending(_ kind: Kind) -> Int { windows[kind]?.suppressed ?? 0 }
}
