import FairFuelEdges
import Foundation
import Testing

/// The control socket against what it may find at its path and against clients that hog it.
@Suite struct ControlSocketHardeningTests {
    static func pump(_ server: ControlSocketServer, _ seconds: Double, _ handle: (String) -> String, until done: () -> Bool) {
        ControlSocketServerTests.pump(server, seconds: seconds, handle: handle, until: done)
    }

    @Test func aRegularFileAtThePathIsNeitherRemovedNorReplaced() throws {
        let path = ControlSocketServerTests.socketPath()
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ControlSocketError.self) { try ControlSocketServer(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    }

    @Test func aDirectoryAtThePathIsLeftAlone() throws {
        let path = ControlSocketServerTests.socketPath()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ControlSocketError.self) { try ControlSocketServer(path: path) }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func aLiveServiceKeepsItsSocketAndTheNewcomerNamesItsPid() throws {
        let path = ControlSocketServerTests.socketPath()
        let first = try ControlSocketServer(path: path)
        do {
            _ = try ControlSocketServer(path: path)
            Issue.record("a second server took the socket of a live one")
        } catch {
            #expect(error.inUseByPID == getpid())
            #expect(error.description.contains("another service answers there (pid \(getpid()))"))
        }
        // The first still answers on its path.
        let answer = ControlSocketServerTests.askInBackground(path, "status")
        Self.pump(first, 5, { "ok: first \($0)\n" }) { answer.result != nil }
        #expect(answer.result == .some("ok: first status\n"))
    }

    @Test func aStaleSocketOfOursIsReplaced() throws {
        let path = ControlSocketServerTests.socketPath()
        // A socket file nobody listens on any more (a service killed with SIGKILL).
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        close(fd)
        let server = try ControlSocketServer(path: path)
        let answer = ControlSocketServerTests.askInBackground(path, "status")
        Self.pump(server, 5, { "ok: \($0)\n" }) { answer.result != nil }
        #expect(answer.result == .some("ok: status\n"))
    }

    /// Opens `count` connections that never send anything.
    static func idleClients(_ path: String, count: Int) -> [Int32] {
        (0..<count).map { _ in
            // Non-blocking: a connect past the listen backlog must not hang the test.
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            return fd
        }
    }

    @Test func twentyIdleClientsNeitherStarveStatusNorSessionEnd() throws {
        let path = ControlSocketServerTests.socketPath()
        let server = try ControlSocketServer(path: path, maximumClients: 16)
        let idle = Self.idleClients(path, count: 20)
        defer { idle.forEach { close($0) } }
        // Let the server take them all in (and refuse the ones past its slots).
        Self.pump(server, 0.2, { "ok: \($0)\n" }) { false }
        let started = Date()
        let status = ControlSocketServerTests.askInBackground(path, "status")
        let end = ControlSocketServerTests.askInBackground(path, "session end")
        Self.pump(server, 5, { "ok: \($0)\n" }) { status.result != nil && end.result != nil }
        let seconds = Date().timeIntervalSince(started)
        #expect(status.result == .some("ok: status\n"))
        #expect(end.result == .some("ok: session end\n"))
        #expect(seconds < 1.0, "status waited \(seconds) s behind idle clients")
        // Another request while the slots are full is told so, at once.
        let other = ControlSocketServerTests.askInBackground(path, "reload")
        Self.pump(server, 5, { "ok: \($0)\n" }) { other.result != nil }
        #expect(other.result??.hasPrefix("error: busy") == true)
        // The idle ones are dropped at their deadline (1 s after connecting, server time).
        Self.pump(server, 2.5, { "ok: \($0)\n" }) { false }
        // Each was closed by the server (the ones past the slots after an "error: busy").
        var buffer = [UInt8](repeating: 0, count: 64)
        for fd in idle {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            #expect(count == 0 || (count > 0 && String(decoding: buffer[0..<count], as: UTF8.self) == "error: busy\n"))
            if count > 0 { #expect(recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == 0) }
        }
        let later = ControlSocketServerTests.askInBackground(path, "reload")
        Self.pump(server, 5, { "ok: \($0)\n" }) { later.result != nil }
        #expect(later.result == .some("ok: reload\n"))
    }

    static let canDropPrivileges: Bool = {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/socat")
    }()

    @Test(.enabled(if: canDropPrivileges, "needs root, setpriv and socat to connect as another user"))
    func aPeerThatIsNeitherRootNorTheServiceNorItsGroupIsRefused() throws {
        let path = ControlSocketServerTests.socketPath()
        // World-writable so that the file system lets "nobody" connect: the credentials check must refuse it.
        let server = try ControlSocketServer(path: path, mode: 0o666)
        var handled: [String] = []
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "2", "-", "UNIX-CONNECT:\(path)"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("status\n".utf8))
        Self.pump(server, 5, { handled.append($0); return "ok\n" }) { !process.isRunning || server.refusedPeers > 0 }
        process.waitUntilExit()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(handled.isEmpty)
        #expect(server.refusedPeers == 1)
        #expect(answer.hasPrefix("error: permission denied"))
    }
}
