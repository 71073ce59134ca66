import FairFuelEdges
import Foundation
import Testing

/// raise(3) sends to the calling thread, which blocks the signals while the watcher lives,
/// so these tests never deliver a real SIGTERM to the test runner. Each test is synchronous
/// and so stays on one thread from raise to read.
@Suite struct SignalWatcherTests {
    @Test func raisedSignalsAreReadFromTheDescriptor() throws {
        let watcher = try SignalWatcher()
        #expect(try watcher.next() == nil)
        raise(SIGHUP)
        var pending = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pending, 1, 1_000) == 1)
        #expect(try watcher.next() == .hangup)
        #expect(try watcher.next() == nil)
        raise(SIGTERM)
        raise(SIGINT)
        var seen: Set<SignalWatcher.Signal> = []
        while seen.count < 2, let signal = try watcher.wait(timeoutMs: 1_000) { seen.insert(signal) }
        #expect(seen == [.terminate, .interrupt])
    }

    @Test func waitTimesOutWithoutASignal() throws {
        let watcher = try SignalWatcher(signals: [.hangup])
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try watcher.wait(timeoutMs: 100) == nil)
        #expect(clock.now - start >= .milliseconds(90))
    }

    @Test func aSignalRaisedTwiceBeforeReadingArrivesOnce() throws {
        let watcher = try SignalWatcher()
        raise(SIGHUP)
        raise(SIGHUP)
        #expect(try watcher.next() == .hangup)
        #expect(try watcher.next() == nil)
        #expect(SignalWatcher.Signal.terminate.description == "SIGTERM")
        #expect(SignalWatcher.Signal.allCases.map(\.rawValue) == [SIGHUP, SIGINT, SIGTERM])
    }
}
