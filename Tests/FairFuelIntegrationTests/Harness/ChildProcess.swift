import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process in a process group of its own, its standard output and error going to
/// files (a chatty child never blocks on a full pipe, and a test can read them while it runs).
final class ChildProcess: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case spawn(String, Int32)
        var description: String {
            switch self {
            case let .spawn(what, code): "cannot spawn \(what): \(String(cString: strerror(code)))"
            }
        }
    }

    /// How a child ended.
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        var description: String {
            switch self {
            case let .exited(code): "exit code \(code)"
            case let .signalled(signal): "signal \(signal)"
            }
        }
    }

    let name: String
    let pid: pid_t
    let outputPath: String
    let errorPath: String
    private(set) var ending: Ending?

    /// Starts `executable arguments...` with standard input from /dev/null, in a new process
    /// group (so teardown can kill everything it started) and with default signal handling.
    init(name: String, executable: String, arguments: [String], outputPath: String, errorPath: String) throws {
        self.name = name
        self.outputPath = outputPath
        self.errorPath = errorPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        // The test runner may block or ignore signals; the child must see SIGTERM as a daemon would.
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure.spawn("\(name) (\(executable))", result) }
        self.pid = pid
    }

    deinit { killGroup() }

    /// Reaps the child if it has ended; nil while it runs.
    @discardableResult
    func poll() -> Ending? {
        if let ending { return ending }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else { return nil }
        // WIFEXITED / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        ending = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        return ending
    }

    var isRunning: Bool { poll() == nil }

    /// Waits up to `seconds` for the child to end.
    @discardableResult
    func wait(seconds: Double) -> Ending? {
        let deadline = Date().addingTimeInterval(seconds)
        while poll() == nil && Date() < deadline { usleep(5_000) }
        return poll()
    }

    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Sends `signal` and waits up to `seconds` for the child to end: how it ended, and how long
    /// after the signal (the stop tests bound both).
    func stop(with signal: Int32, waitingUpTo seconds: Double = 5) -> (ending: Ending?, seconds: Double) {
        let sent = Date()
        send(signal)
        let ending = wait(seconds: seconds)
        return (ending, Date().timeIntervalSince(sent))
    }

    /// SIGKILL to the whole process group, then reaps the child. Safe to call twice.
    func killGroup() {
        guard poll() == nil else { return }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        wait(seconds: 5)
    }

    var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
}
