import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server from Debian's packages, made by `initdb` in a temporary directory and
/// started by `pg_ctl` on a free loopback port, which the test stops.
///
/// PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user that
/// Debian's package makes, and every tool runs through `runuser`. Trust authentication on
/// 127.0.0.1 only, the cluster's superuser `fairfuel`, no password.
public final class PostgresHarness {
    /// The newest version's binaries (`/usr/lib/postgresql/VERSION/bin`), or nil.
    public static let binDirectory: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }()
    static let runuserPath = findExecutable("runuser")
    /// Who runs the server: nil for this process's user, else `postgres` when we are root.
    static let serverUser: String? = getuid() == 0 ? "postgres" : nil
    public static var toolsPresent: Bool {
        binDirectory != nil && (serverUser == nil || (runuserPath != nil && getpwnam("postgres") != nil))
    }
    public static let missingMessage = "PostgreSQL's initdb and pg_ctl (or, as root, the postgres user) are missing (scripts/install-deps.sh installs postgresql)"

    public let directory: String
    public let port: Int
    private var running = false

    /// `postgres://fairfuel@127.0.0.1:PORT/DATABASE`.
    public func url(database: String = "postgres") -> String { "postgres://fairfuel@127.0.0.1:\(port)/\(database)" }

    public init() throws {
        guard Self.toolsPresent, let bin = Self.binDirectory else { throw HarnessError(Self.missingMessage) }
        TestTier.require(.integration, for: "a PostgreSQL server")
        directory = NSTemporaryDirectory() + "fairfuel-postgres-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard let port = freeLoopbackPort() else { throw HarnessError("no free loopback port") }
        self.port = port
        if let user = Self.serverUser, let entry = getpwnam(user) {
            guard chown(directory, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else { throw HarnessError("cannot give \(directory) to \(user)") }
        }
        try run(bin + "/initdb", ["-D", directory + "/data", "-U", "fairfuel", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale", "C"])
        try start()
    }

    /// Starts the server again after `stop()`, on the same port with the same data.
    public func start() throws {
        // Sockets in the test's directory (not /var/run/postgresql, which may be missing), TCP on loopback only.
        let options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory) -c fsync=off -c max_connections=50"
        try run(Self.binDirectory! + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/server.log", "-o", options, "-w", "-t", "30", "start"])
        running = true
    }

    /// Stops the server (fast shutdown: every client's connection is ended), keeping its data for `start()`.
    public func stop() throws {
        try run(Self.binDirectory! + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "-t", "30", "stop"])
        running = false
    }

    deinit { shutDown() }

    /// Makes an empty database `name`.
    public func createDatabase(_ name: String) throws {
        try run(Self.binDirectory! + "/createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "fairfuel", name])
    }

    /// Stops the server (fast shutdown) and removes the directory; safe to call twice.
    public func shutDown() {
        if running, let bin = Self.binDirectory {
            try? run(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "-t", "30", "stop"])
            running = false
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The server's log so far, for a failure message.
    public var log: String { (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "" }

    /// Runs a tool to its end, its output in a file: not Foundation's Process, whose wait never saw
    /// `runuser` end once pg_ctl had left the server running, nor a pipe, which the server keeps open.
    private func run(_ executable: String, _ arguments: [String]) throws {
        let argv = (Self.serverUser.flatMap { user in Self.runuserPath.map { [$0, "-u", user, "--"] } } ?? []) + [executable] + arguments
        let outputPath = directory + "/tool.out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw HarnessError("cannot start \(argv[0]): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw HarnessError("\((executable as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed (\(status)): \(text) \(log)")
        }
    }
}
