import FairFuelCore
import FairFuelParsers

/// Maps link time (monotonic, from the capture or the host) to UTC once a valid fix gives it.
///
/// A Pi has no real-time clock: until then wall time is unknown, and nothing
/// is stamped with a guess; events keep their link time and are stamped when
/// the anchor arrives.
public struct UTCAnchor: Sendable, Equatable {
    /// UTC milliseconds minus link milliseconds.
    public private(set) var offsetMs: Int64?

    public init(offsetMs: Int64? = nil) {
        self.offsetMs = offsetMs
    }

    /// Takes the UTC of a valid fix received at link time `time`. Returns true when the
    /// anchor was set or moved by more than `toleranceMs` (receiver time jumps, a new boot).
    public mutating func update(fix: GNSSFix, at time: LinkMilliseconds, toleranceMs: Int64 = 1_000) -> Bool {
        guard let utc = fix.utc, fix.mode == .fix2D || fix.mode == .fix3D else { return false }
        let offset = utc.millisecondsSinceEpoch - time.value
        if let current = offsetMs, abs(current - offset) <= toleranceMs { return false }
        offsetMs = offset
        return true
    }

    /// UTC of a link time, nil while no valid fix has been seen.
    public func utc(_ time: LinkMilliseconds) -> UTCTimestamp? {
        offsetMs.map { UTCTimestamp(millisecondsSinceEpoch: time.value + $0) }
    }
}
