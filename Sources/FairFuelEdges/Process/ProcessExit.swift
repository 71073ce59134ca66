#if canImport(Glibc)
import Glibc
#endif

/// Ending the process (exit(3)): standard output and error are flushed, atexit handlers run.
public enum ProcessExit {
    public static func now(_ status: Int32) -> Never {
        exit(status)
    }
}
