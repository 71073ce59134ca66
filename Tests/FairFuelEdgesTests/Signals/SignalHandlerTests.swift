import FairFuelEdges
import Foundation
import Synchronization
import Testing

/// Set by the handler under test; a C handler cannot capture.
private let hangupsHandled = Atomic<Int>(0)

/// SIGHUP stands in for the CLI's SIGINT and SIGTERM: a handler for those would take the test
/// runner's own stop signals. raise(3) sends to the calling thread, which unblocks the signal
/// here, so `SignalWatcherTests` (which raise it in threads that block it) never see this handler.
@Suite(.serialized) struct SignalHandlerTests {
    static func isBlocked(_ signal: Int32) -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &current)
        return sigismember(&current, signal) == 1
    }

    @Test func aBlockedSignalIsUnblockedAndCallsTheHandler() throws {
        var previous = sigset_t()
        var hangup = sigset_t()
        sigemptyset(&hangup)
        sigaddset(&hangup, SIGHUP)
        // As a parent that blocked it would hand it down.
        pthread_sigmask(SIG_BLOCK, &hangup, &previous)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            signal(SIGHUP, SIG_DFL)
        }
        #expect(Self.isBlocked(SIGHUP))
        hangupsHandled.store(0, ordering: .relaxed)

        try SignalHandler.install({ _ in hangupsHandled.add(1, ordering: .relaxed) }, for: [.hangup])
        #expect(!Self.isBlocked(SIGHUP))
        raise(SIGHUP)
        raise(SIGHUP)
        #expect(hangupsHandled.load(ordering: .relaxed) == 2)

        // As glibc's signal(2) installs it: system calls restart, the signal is held while the handler runs.
        var installed = sigaction()
        #expect(sigaction(SIGHUP, nil, &installed) == 0)
        #expect(installed.sa_flags & SA_RESTART != 0)
        #expect(sigismember(&installed.sa_mask, SIGHUP) == 1)
    }
}
