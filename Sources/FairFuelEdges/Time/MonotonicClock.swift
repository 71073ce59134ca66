#if canImport(Glibc)
import Glibc
#endif
import FairFuelCore

/// The host's monotonic clock in milliseconds: the live link's time base.
///
/// Only the service's edge reads it; the domain gets it as event time, exactly as a
/// replay gets a capture's `t_ms`.
public struct MonotonicClock: Sendable {
    private let originMs: Int64

    public init() { originMs = MonotonicClock.rawMilliseconds() }

    /// Milliseconds since this clock was made.
    public var now: LinkMilliseconds { LinkMilliseconds(MonotonicClock.rawMilliseconds() - originMs) }

    static func rawMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
