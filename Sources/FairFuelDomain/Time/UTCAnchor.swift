import FairFuelCore
import FairFuelParsers

/// Maps link time (monotonic, from the capture or the host) to UTC once a valid fix gives it.
///
/// A Pi has no real-time clock: until then wall time is unknown, and nothing
/// is stamped with a guess; events keep their link time and are stamped when
/// the anchor arrives. The receiver's clock is trusted only as far as it agrees
/// with itself: a date before `earliestUTCMs` (a week-number rollover, a receiver
/// that has not read its almanac) is ignored, and a moved anchor needs two fixes
/// in a row that agree, so one bad epoch never stamps a trip in the past or future.
public struct UTCAnchor: Sendable, Equatable {
    /// 2020-01-01T00:00:00Z: no trip of this product is older.
    public static let earliestUTCMs: Int64 = 1_577_836_800_000

    /// UTC milliseconds minus link milliseconds.
    public private(set) var offsetMs: Int64?
    /// A different offset seen once, waiting for a second fix to confirm it.
    private var proposedOffsetMs: Int64?

    public init(offsetMs: Int64? = nil) {
        self.offsetMs = offsetMs
    }

    /// Takes the UTC of a valid fix received at link time `time`. Returns true when the
    /// anchor was set or moved by more than `toleranceMs` (receiver time jumps, a new boot).
    public mutating func update(fix: GNSSFix, at time: LinkMilliseconds, toleranceMs: Int64 = 1_000) -> Bool {
        guard let utc = fix.utc, fix.mode == .fix2D || fix.mode == .fix3D,
            utc.millisecondsSinceEpoch >= Self.earliestUTCMs
        else { return false }
        let offset = utc.millisecondsSinceEpoch - time.value
        guard let current = offsetMs else {
            offsetMs = offset
            proposedOffsetMs = nil
            return true
        }
        if abs(current - offset) <= toleranceMs {
            proposedOffsetMs = nil
            return false
        }
        if let proposed = proposedOffsetMs, abs(proposed - offset) <= toleranceMs {
            offsetMs = offset
            proposedOffsetMs = nil
            return true
        }
        proposedOffsetMs = offset
        return false
    }

    /// Forgets the anchor (a new MCU clock): nothing is stamped until the next valid fix.
    public mutating func reset() {
        offsetMs = nil
        proposedOffsetMs = nil
    }

    /// UTC of a link time, nil while no valid fix has been seen.
    public func utc(_ time: LinkMilliseconds) -> UTCTimestamp? {
        offsetMs.map { UTCTimestamp(millisecondsSinceEpoch: time.value + $0) }
    }
}
