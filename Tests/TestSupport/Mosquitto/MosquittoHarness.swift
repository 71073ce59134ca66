import Foundation

/// A real Mosquitto broker on 127.0.0.1 with a generated configuration and a free port, which the test stops.
///
/// `mosquitto -c FILE`: `user root` keeps the broker from dropping to the `mosquitto` user (it
/// could no longer read the test's files); no persistence, so each harness starts empty. The
/// broker logs to a file (`log_type all`), which tells the test when a subscriber's SUBSCRIBE
/// has been acknowledged.
public final class MosquittoHarness {
    public static let mosquittoPath = findExecutable("mosquitto")
    public static let subscriberPath = findExecutable("mosquitto_sub")
    public static let passwordToolPath = findExecutable("mosquitto_passwd")
    public static let opensslPath = findExecutable("openssl")
    public static var toolsPresent: Bool { mosquittoPath != nil && subscriberPath != nil && passwordToolPath != nil }
    public static let missingMessage = "mosquitto, mosquitto_sub or mosquitto_passwd is missing (scripts/install-deps.sh installs them)"

    /// Certificates the test made with openssl: a CA, the broker's (for IP 127.0.0.1) and a client's.
    public struct Certificates {
        public var caFile: String
        public var serverCertFile: String
        public var serverKeyFile: String
        public var clientCertFile: String
        public var clientKeyFile: String
    }

    public let directory: String
    public let port: Int
    public let users: [(name: String, password: String)]
    public let certificates: Certificates?
    public private(set) var broker: ChildProcess?
    private var starts = 0
    private var subscribers: [ChildProcess] = []

    /// With `users`, anonymous clients are refused; with `acl`, the text of an `acl_file`; with
    /// `tls`, the listener wants TLS and a client certificate (with `requireCertificate` false, TLS
    /// only; with `identityAsUsername`, the client certificate's CN is the user name).
    /// With `persistent`, the broker saves sessions and queued messages when stopped and reloads them on start.
    public init(
        users: [(name: String, password: String)] = [], acl: String? = nil, tls: Bool = false, requireCertificate: Bool = true,
        identityAsUsername: Bool = false, persistent: Bool = false
    ) throws {
        guard Self.toolsPresent else { throw HarnessError(Self.missingMessage) }
        directory = NSTemporaryDirectory() + "fairfuel-mosquitto-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard let port = freeLoopbackPort() else { throw HarnessError("no free loopback port") }
        self.port = port
        self.users = users
        certificates = tls ? try Self.makeCertificates(in: directory) : nil
        var lines = [
            "user root", persistent ? "persistence true\npersistence_location \(directory)/" : "persistence false", "log_dest file \(directory)/broker.log", "log_type all",
            "listener \(port) 127.0.0.1",
        ]
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwordFile = directory + "/passwords"
            for (index, user) in users.enumerated() {
                try Self.run(
                    Self.passwordToolPath!, (index == 0 ? ["-c"] : []) + ["-b", passwordFile, user.name, user.password],
                    in: directory)
            }
            lines += ["allow_anonymous false", "password_file \(passwordFile)"]
        }
        if let acl {
            try acl.write(toFile: directory + "/acl", atomically: true, encoding: .utf8)
            lines.append("acl_file \(directory)/acl")
        }
        if let certificates {
            lines += [
                "cafile \(certificates.caFile)", "certfile \(certificates.serverCertFile)",
                "keyfile \(certificates.serverKeyFile)", "require_certificate \(requireCertificate)",
            ]
            if identityAsUsername { lines.append("use_identity_as_username true") }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit { shutDown() }

    /// Starts the broker and waits (up to 5 s) until it accepts TCP connections.
    public func start() throws {
        starts += 1
        broker = try ChildProcess(
            Self.mosquittoPath!, ["-c", directory + "/mosquitto.conf"], logPath: directory + "/stdout-\(starts).log")
        let deadline = Date().addingTimeInterval(5)
        while !Self.accepts(port: port) {
            guard Date() < deadline, broker?.isRunning == true else {
                throw HarnessError("mosquitto did not listen on \(port) within 5 s: \(logs)")
            }
            usleep(10_000)
        }
    }

    /// Stops the broker (SIGTERM, then SIGKILL) and waits for it.
    public func stop() {
        broker?.stop()
        broker = nil
    }

    /// Stops every child and removes the directory; safe to call twice.
    public func shutDown() {
        for subscriber in subscribers { subscriber.stop() }
        subscribers = []
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A `mosquitto_sub` on `topic` that prints `topic payload` lines and exits after `count`
    /// messages or `seconds`; returns once the broker has acknowledged its subscription.
    /// With `sessionID`, the subscriber keeps a persistent session under that client id (`-c`):
    /// the broker queues its QoS 1 messages while it is away, and it reconnects by itself.
    public func subscribe(
        topic: String, count: Int, seconds: Int = 10, user: (name: String, password: String)? = nil, sessionID: String? = nil
    ) throws -> ChildProcess {
        let id = sessionID ?? "fairfuel-sub-\(UUID().uuidString.prefix(8))"
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-i", id, "-q", "1", "-t", topic, "-v", "-C", "\(count)", "-W", "\(seconds)"]
        if sessionID != nil { arguments.append("-c") }
        if let user = user ?? users.first { arguments += ["-u", user.name, "-P", user.password] }
        if let certificates {
            arguments += ["--cafile", certificates.caFile, "--cert", certificates.clientCertFile, "--key", certificates.clientKeyFile]
        }
        let subscriber = try ChildProcess(Self.subscriberPath!, arguments, logPath: directory + "/\(id).log", lifetimeSeconds: seconds + 5)
        subscribers.append(subscriber)
        let deadline = Date().addingTimeInterval(5)
        while !brokerLog.contains("Sending SUBACK to \(id)") {
            guard Date() < deadline, subscriber.isRunning else {
                throw HarnessError("mosquitto_sub did not subscribe within 5 s: \(subscriber.log) \(logs)")
            }
            usleep(10_000)
        }
        return subscriber
    }

    /// Waits up to `seconds` for `subscriber` to exit and returns its output lines.
    public func lines(of subscriber: ChildProcess, seconds: Double = 10) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while subscriber.isRunning && Date() < deadline { usleep(10_000) }
        return subscriber.log.split(separator: "\n").map(String.init)
    }

    public var brokerLog: String { (try? String(contentsOfFile: directory + "/broker.log", encoding: .utf8)) ?? "" }

    /// The broker's logs so far, for a failure message.
    public var logs: String {
        var text = "broker.log:\n" + brokerLog
        for index in 1...max(1, starts) {
            text += "\nstdout-\(index): " + ((try? String(contentsOfFile: directory + "/stdout-\(index).log", encoding: .utf8)) ?? "")
        }
        return text
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    public static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A CA, a broker certificate for IP 127.0.0.1 and a client certificate, with P-256 keys (fast to make).
    static func makeCertificates(in directory: String) throws -> Certificates {
        guard let openssl = opensslPath else { throw HarnessError("openssl is missing (scripts/install-deps.sh installs it)") }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(openssl, ["req", "-x509"] + key + [
            "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=FairFuel test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ], in: directory)
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: directory + "/server.ext", atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(toFile: directory + "/client.ext", atomically: true, encoding: .utf8)
        for (name, subject) in [("server", "/CN=127.0.0.1"), ("client", "/CN=test-car")] {
            try run(openssl, ["req"] + key + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject], in: directory)
            try run(openssl, [
                "x509", "-req", "-in", "\(name).csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "\(name).crt", "-days", "2", "-extfile", "\(name).ext",
            ], in: directory)
        }
        return Certificates(
            caFile: directory + "/ca.crt", serverCertFile: directory + "/server.crt", serverKeyFile: directory + "/server.key",
            clientCertFile: directory + "/client.crt", clientKeyFile: directory + "/client.key")
    }

    /// Another CA in `directory` (`NAME.crt`, `NAME.key`), which signed nothing of the harness's.
    public static func makeCA(named name: String, in directory: String) throws -> String {
        guard let openssl = opensslPath else { throw HarnessError("openssl is missing (scripts/install-deps.sh installs it)") }
        try run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "\(name).key", "-out", "\(name).crt", "-days", "2", "-subj", "/CN=\(name)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ], in: directory)
        return directory + "/\(name).crt"
    }

    /// A client certificate `NAME.crt` and key `NAME.key` in `directory`, signed by the CA `caFile`
    /// (its key beside it, `.key` for `.crt`), valid for `days`: `-1` makes one that expired a day ago.
    public static func makeClientCertificate(
        named name: String, subject: String = "/CN=test-car", caFile: String, days: Int = 2, in directory: String
    ) throws -> (certFile: String, keyFile: String) {
        guard let openssl = opensslPath else { throw HarnessError("openssl is missing (scripts/install-deps.sh installs it)") }
        let caKey = String(caFile.dropLast(".crt".count)) + ".key"
        try "extendedKeyUsage=clientAuth\n".write(toFile: directory + "/\(name).ext", atomically: true, encoding: .utf8)
        try run(openssl, ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject], in: directory)
        try run(openssl, [
            "x509", "-req", "-in", "\(name).csr", "-CA", caFile, "-CAkey", caKey, "-set_serial", "\(Int.random(in: 1000...999_999))",
            "-out", "\(name).crt", "-days", "\(days)", "-extfile", "\(name).ext",
        ], in: directory)
        return (directory + "/\(name).crt", directory + "/\(name).key")
    }

    static func run(_ executable: String, _ arguments: [String], in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError("\((executable as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }
}
