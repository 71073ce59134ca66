import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A service that accepts and never answers (stopped with SIGSTOP, or overloaded): `status` and
/// `session end` must fail saying so, not print nothing and exit 0. The stand-in is a real Unix
/// socket in this process that accepts connections and holds them open.
@Suite struct ControlClientNoAnswerTests {
    /// A listener that accepts every connection and never writes.
    final class SilentListener: @unchecked Sendable {
        let path: String
        let descriptor: Int32
        private let lock = NSLock()
        private var held: [Int32] = []
        private var stopping = false
        private var thread: Thread?

        init(path: String) throws {
            self.path = path
            descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard descriptor >= 0, bound == 0, listen(descriptor, 8) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot listen at \(path): errno \(errno)"])
            }
            let thread = Thread { [self] in
                while !lock.withLock({ stopping }) {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&ready, 1, 50) > 0 else { continue }
                    let client = accept(descriptor, nil, nil)
                    if client >= 0 { lock.withLock { held.append(client) } }
                }
            }
            self.thread = thread
            thread.start()
        }

        var accepted: Int { lock.withLock { held.count } }

        func stop() {
            lock.withLock { stopping = true }
            usleep(100_000)
            for client in lock.withLock({ held }) { close(client) }
            close(descriptor)
            unlink(path)
        }
    }

    @Test func statusAndSessionEndFailSayingTheServiceDidNotAnswer() throws {
        let directory = "/tmp/ffna-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/control.sock"
        let listener = try SilentListener(path: socketPath)
        defer { listener.stop() }

        for arguments in [["status"], ["status", "--json"], ["session", "end"]] {
            let started = Date()
            let result = try FairFuelExecutable.run(arguments + ["--control", socketPath])
            let seconds = Date().timeIntervalSince(started)
            #expect(result.exitCode == 1, "\(arguments): exit \(result.exitCode)")
            #expect(result.standardOutput.isEmpty, "\(arguments): \(result.standardOutput)")
            #expect(result.standardError.contains("the fairfuel service at \(socketPath) did not answer within 5 s"),
                    "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("stopped") && result.standardError.contains("systemctl"))
            #expect(seconds >= 4.9 && seconds < 15, "\(arguments): waited \(seconds) s")
        }
        #expect(listener.accepted == 3, "each command reached the socket")
    }

    @Test func noSocketIsStillNotRunning() throws {
        let path = "/tmp/ffna-absent-" + String(UUID().uuidString.prefix(8)) + ".sock"
        let result = try FairFuelExecutable.run(["status", "--control", path])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("the fairfuel service is not running (no control socket at \(path))"), "\(result.standardError)")
    }

    /// `--control` naming a regular file, a FIFO or a directory: refused at once with what is there,
    /// never connected to or waited on.
    @Test(.timeLimit(.minutes(1))) func aControlPathThatIsNotASocketIsRefusedAtOnce() throws {
        let directory = "/tmp/ffns-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/control.sock"
        try "not a socket\n".write(toFile: file, atomically: true, encoding: .utf8)
        let fifo = directory + "/control.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        for (path, found) in [(file, "a regular file"), (fifo, "a FIFO"), (directory, "a directory")] {
            for arguments in [["status"], ["session", "end"]] {
                let started = Date()
                let result = try FairFuelExecutable.run(arguments + ["--control", path])
                let seconds = Date().timeIntervalSince(started)
                #expect(result.exitCode == 1, "\(arguments) \(path): exit \(result.exitCode)")
                #expect(result.standardError.contains("\(path) is \(found), not the fairfuel service's control socket; give the socket's path with --control"),
                        "\(arguments): \(result.standardError)")
                #expect(seconds < 1, "\(arguments) \(path): \(seconds) s")
            }
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "not a socket\n", "the file is left as it was")
    }
}
