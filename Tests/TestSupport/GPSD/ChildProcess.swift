import Foundation

/// A helper process a test starts (socat, gpsd) and always stops: SIGTERM, then SIGKILL after a bounded wait.
///
/// Spawned with posix_spawn and a clean signal mask and default handlers:
/// Foundation's `Process` passes on the mask of the thread that launches it,
/// and a test runner's worker threads block SIGTERM, which made gpsd deaf to
/// it. Each child runs under `timeout`, so that even a test that crashes
/// leaves no process behind for longer than `lifetimeSeconds`.
public final class ChildProcess {
    public let name: String
    public let logPath: String
    /// The process spawned: `timeout`, whose child is the program itself.
    public let processIdentifier: pid_t
    private var exited = false

    /// Starts `executable` with `arguments`; its stdout and stderr go to `logPath`.
    public init(_ executable: String, _ arguments: [String], logPath: String, lifetimeSeconds: Int = 120) throws {
        name = (executable as NSString).lastPathComponent
        self.logPath = logPath
        TestTier.require(.integration, for: "a helper process (\(name))")
        guard let timeout = findExecutable("timeout") else { throw HarnessError("timeout (coreutils) is missing") }
        let argv = [timeout, "-k", "2", "\(lifetimeSeconds)", executable] + arguments

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, timeout, &actions, &attributes, &cArguments, environ)
        guard status == 0 else { throw HarnessError("cannot start \(executable): errno \(status)") }
        processIdentifier = pid
    }

    deinit { stop() }

    public var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        let result = waitpid(processIdentifier, &status, WNOHANG)
        if result == processIdentifier || (result < 0 && errno == ECHILD) { exited = true }
        return !exited
    }

    /// The program's own process id (the child of `timeout`), once it has started.
    public var programIdentifier: pid_t? {
        let path = "/proc/\(processIdentifier)/task/\(processIdentifier)/children"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// What the process wrote so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits up to `timeoutSeconds`, then SIGKILL; returns once the process has been reaped.
    public func stop(timeoutSeconds: Double = 3) {
        guard isRunning else { return }
        kill(processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while isRunning && Date() < deadline { usleep(5_000) }
        guard isRunning else { return }
        // timeout runs the program in its own process group: kill both.
        kill(-processIdentifier, SIGKILL)
        kill(processIdentifier, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(processIdentifier, &status, 0)
        exited = true
    }
}

/// Finds an executable on PATH or in the sbin directories (gpsd lives in /usr/sbin).
public func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/sbin"]
    return directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A TCP port on 127.0.0.1 that nothing listens on right now (the kernel picks it).
public func freeLoopbackPort() -> Int? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}
