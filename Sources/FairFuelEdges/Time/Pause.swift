#if canImport(Glibc)
import Glibc
#endif

/// Waiting without a clock or a thread library: for retry delays and pacing in loops that own no poll set.
public enum Pause {
    /// Blocks the calling thread for about `milliseconds` (a signal may end it early).
    public static func milliseconds(_ milliseconds: Int32) {
        guard milliseconds > 0 else { return }
        _ = poll(nil, 0, milliseconds)
    }
}
