#if canImport(Glibc)
import Glibc
#endif

/// The system's real-time clock (CLOCK_REALTIME): for what a person calls "now" (a refuel entered
/// now, when a secret was made), never for measuring durations (that is `MonotonicClock`).
public enum WallClock {
    /// Milliseconds since 1970-01-01 00:00 UTC; may step when the clock is set.
    public static func utcMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
