import FairFuelCore
import FairFuelParsers

/// Maps link time (monotonic, from the capture or the host) to UTC once a valid fix gives it.
///
/// A Pi has no real-time clock: until then wall time is unknown, and nothing
/// is stamped with a guess; events keep their link time and are stamped when
/// the anchor arrives. The receiver's clock is trusted only as far as it agrees
/// with itself and with link time:
/// - a date before `earliestUTCMs` (a week-number rollover, a receiver that has not
///   read its almanac) never anchors;
/// - a small step (a second or two of drift, a minute of MCU clock lost) moves the
///   anchor only when two fixes in a row agree on it;
/// - once anchored, a fix whose time runs back more than `backwardToleranceMs`, or
///   forward more than `forwardLimitMs`, against link time is a bad epoch: it moves
///   nothing, and its caller keeps it out of the trip. Only a receiver that holds the
///   new time, agreeing with itself, for `insistMs` (its own time or link time) is
///   believed: the anchor was the wrong one (a receiver that had not learnt the leap
///   seconds yet), and it moves.
public struct UTCAnchor: Sendable, Equatable {
    /// 2020-01-01T00:00:00Z: no trip of this product is older.
    public static let earliestUTCMs: Int64 = 1_577_836_800_000
    /// A receiver time this far behind the anchor (on link time) is a bad epoch: a few seconds
    /// cover the reading of a late serial buffer and a leap second.
    public static let backwardToleranceMs: Int64 = 5_000
    /// A receiver time this far ahead of the anchor is a bad epoch: more than an MCU that lost
    /// its clock for a moment (a reboot whose HELLO was lost) explains.
    public static let forwardLimitMs: Int64 = 300_000
    /// How long a receiver must hold a time the anchor calls bad before it is believed.
    public static let insistMs: Int64 = 30_000

    /// What one fix did to the anchor.
    public enum Reading: Sendable, Equatable {
        /// No valid fix with a date: nothing to say about time.
        case unusable
        /// The fix agrees with the anchor, or proposes a small step not confirmed yet.
        case kept
        /// The anchor was set, or moved (by more than the tolerance).
        case moved
        /// The receiver's time is off by `stepMs` (negative: back) against link time; the
        /// fix must not be used. `firstOfRun`: the fix before it was not a bad epoch.
        case badEpoch(stepMs: Int64, firstOfRun: Bool)
    }

    /// UTC milliseconds minus link milliseconds.
    public private(set) var offsetMs: Int64?
    /// Bad epochs seen since the anchor was created (a counter for status and replays).
    public private(set) var badEpochCount = 0
    /// A different offset seen once, waiting for a second fix to confirm it.
    private var proposedOffsetMs: Int64?
    /// The run of bad epochs going on: since when (link and receiver time) the receiver has
    /// held the offset it insists on, and that offset at its last fix.
    private var insisting: Insistence?
    private var inBadRun = false

    public init(offsetMs: Int64? = nil) {
        self.offsetMs = offsetMs
    }

    private struct Insistence: Sendable, Equatable {
        var sinceLinkMs: Int64
        var sinceUTCMs: Int64
        var offsetMs: Int64
    }

    /// Takes the UTC of a fix received at link time `time` (see the type's rules).
    public mutating func update(fix: GNSSFix, at time: LinkMilliseconds, toleranceMs: Int64 = 1_000) -> Reading {
        guard let utc = fix.utc, fix.mode == .fix2D || fix.mode == .fix3D else { return .unusable }
        let utcMs = utc.millisecondsSinceEpoch
        let offset = utcMs - time.value
        guard let current = offsetMs else {
            guard utcMs >= Self.earliestUTCMs else { return .unusable }
            offsetMs = offset
            proposedOffsetMs = nil
            return .moved
        }
        let stepMs = offset - current
        if stepMs < -Self.backwardToleranceMs || stepMs > Self.forwardLimitMs || utcMs < Self.earliestUTCMs {
            return badEpoch(stepMs: stepMs, offset: offset, utcMs: utcMs, at: time, toleranceMs: toleranceMs)
        }
        inBadRun = false
        insisting = nil
        if abs(stepMs) <= toleranceMs {
            proposedOffsetMs = nil
            return .kept
        }
        if let proposed = proposedOffsetMs, abs(proposed - offset) <= toleranceMs {
            offsetMs = offset
            proposedOffsetMs = nil
            return .moved
        }
        proposedOffsetMs = offset
        return .kept
    }

    private mutating func badEpoch(stepMs: Int64, offset: Int64, utcMs: Int64, at time: LinkMilliseconds, toleranceMs: Int64)
        -> Reading
    {
        proposedOffsetMs = nil
        if let held = insisting, abs(held.offsetMs - offset) <= toleranceMs {
            insisting?.offsetMs = offset
            let heldMs = max(time.value - held.sinceLinkMs, utcMs - held.sinceUTCMs)
            if heldMs >= Self.insistMs && utcMs >= Self.earliestUTCMs {
                offsetMs = offset
                insisting = nil
                inBadRun = false
                return .moved
            }
        } else {
            insisting = Insistence(sinceLinkMs: time.value, sinceUTCMs: utcMs, offsetMs: offset)
        }
        badEpochCount += 1
        let first = !inBadRun
        inBadRun = true
        return .badEpoch(stepMs: stepMs, firstOfRun: first)
    }

    /// Forgets the anchor (a new MCU clock): nothing is stamped until the next valid fix.
    public mutating func reset() {
        offsetMs = nil
        proposedOffsetMs = nil
        insisting = nil
        inBadRun = false
    }

    /// UTC of a link time, nil while no valid fix has been seen.
    public func utc(_ time: LinkMilliseconds) -> UTCTimestamp? {
        offsetMs.map { UTCTimestamp(millisecondsSinceEpoch: time.value + $0) }
    }
}
