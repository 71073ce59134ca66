#if canImport(Glibc)
import Glibc
#endif

/// Makes SIGINT and SIGTERM call `handler` (which sets a flag the command's loop polls).
/// A parent (a test runner, a service's helper thread) may have blocked these signals and
/// a child inherits its mask: they are unblocked first, or the handler would never run.
func catchStopSignals(_ handler: @convention(c) (Int32) -> Void) {
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
}
