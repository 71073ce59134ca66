import CPosixShims

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGTERM, SIGINT and SIGHUP into readable events on a signalfd(2) the service loop polls.
///
/// The signals are blocked in the creating thread, so they are never delivered
/// the usual way and wait for `next()`. Create the watcher in `main` before any
/// other thread starts: threads inherit the mask, and a thread that does not
/// block SIGTERM would take it and die by the default action. Deinit drops any
/// signal still pending and restores the previous mask.
public final class SignalWatcher {
    /// The signals the service handles (Linux numbers).
    public enum Signal: Int32, Sendable, CaseIterable, CustomStringConvertible {
        /// Reload the configuration.
        case hangup = 1
        /// Ctrl-C at a terminal: stop like SIGTERM.
        case interrupt = 2
        /// systemd's stop: flush the store and exit.
        case terminate = 15

        public var description: String {
            switch self {
            case .hangup: "SIGHUP"
            case .interrupt: "SIGINT"
            case .terminate: "SIGTERM"
            }
        }
    }

    /// Readable (POLLIN) while a watched signal is pending.
    public let fileDescriptor: Int32
    public let signals: [Signal]
    private var previousMask = sigset_t()

    /// Blocks `signals` in this thread and opens a non-blocking, close-on-exec signalfd for them.
    public init(signals: [Signal] = Signal.allCases) throws(SignalWatcherError) {
        self.signals = signals
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal.rawValue) }
        var previous = sigset_t()
        let blocked = pthread_sigmask(SIG_BLOCK, &mask, &previous)
        guard blocked == 0 else { throw SignalWatcherError(operation: "block signals", errnoCode: blocked) }
        let descriptor = signalfd(-1, &mask, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC))
        guard descriptor >= 0 else {
            let code = errno
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            throw SignalWatcherError(operation: "open a signalfd", errnoCode: code)
        }
        fileDescriptor = descriptor
        previousMask = previous
    }

    deinit {
        while (try? next()) != nil {}
        close(fileDescriptor)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// The next pending signal, or nil when none is pending; never blocks.
    public func next() throws(SignalWatcherError) -> Signal? {
        var information = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while true {
            let count = read(fileDescriptor, &information, size)
            if count == size {
                if let signal = Signal(rawValue: Int32(information.ssi_signo)) { return signal }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { return nil }
            throw SignalWatcherError(operation: "read the signalfd", errnoCode: count < 0 ? errno : EIO)
        }
    }

    /// Waits up to `timeoutMs` (negative: forever) for a signal; nil on timeout.
    public func wait(timeoutMs: Int32) throws(SignalWatcherError) -> Signal? {
        if let signal = try next() { return signal }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMs)
        if ready < 0 && errno != EINTR { throw SignalWatcherError(operation: "poll the signalfd", errnoCode: errno) }
        return try next()
    }

    /// Ignores SIGPIPE process-wide, so a write to a socket whose reader left fails with EPIPE instead of killing the service.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}
