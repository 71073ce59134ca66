#if canImport(Glibc)
import Glibc
#endif

/// A classic signal handler, for commands whose loops poll a flag the handler sets (the CLI's
/// `record`, `sim` and `hub`); the service reads its signals from a `SignalWatcher` instead.
public enum SignalHandler {
    /// Makes each of `signals` call `handler`, as signal(2) does on glibc (interrupted system calls
    /// restart; the signal is held while its handler runs).
    ///
    /// A parent (a test runner, a service's helper thread) may have blocked these signals and a
    /// child inherits its mask: they are unblocked in the calling thread first, or the handler
    /// would never run.
    public static func install(
        _ handler: @convention(c) (Int32) -> Void, for signals: [SignalWatcher.Signal]
    ) throws(SignalWatcherError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal.rawValue) }
        let unblocked = pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        guard unblocked == 0 else {
            throw SignalWatcherError(operation: "unblock \(signals.map(\.description).joined(separator: " and "))", errnoCode: unblocked)
        }
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            sigemptyset(&action.sa_mask)
            sigaddset(&action.sa_mask, signal.rawValue)
            action.sa_flags = SA_RESTART
            guard sigaction(signal.rawValue, &action, nil) == 0 else {
                throw SignalWatcherError(operation: "install a handler for \(signal)", errnoCode: errno)
            }
        }
    }
}
