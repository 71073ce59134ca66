#if canImport(Glibc)
import Glibc
#endif

/// Why the control socket could not be set up or used.
public struct ControlSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var errnoCode: Int32
    public var description: String { "control socket \(path): cannot \(operation): \(String(cString: strerror(errnoCode)))" }
}

/// The service's control socket: a Unix stream socket serving one request line per
/// connection (`status`, `session end`, ...) and answering with text, then closing.
///
/// A request that takes a while (learning a tag waits for a tap) is answered later:
/// the handler returns `ControlSocketServer.deferred`, keeps `currentTicket`, and calls
/// `complete(_:with:)` when it knows the answer; a client that hangs up first is
/// reported by `takeHungUp()`.
///
/// Clients are few (the CLI); each has a fixed request buffer, and the server
/// never blocks: the service loop polls `pollDescriptors` and calls `service`.
public final class ControlSocketServer {
    public let path: String
    public let listener: Int32
    public let maximumClients: Int
    public static let maximumRequestBytes = 4096

    struct Client {
        var descriptor: Int32
        var request: [UInt8]
        var openedAtMs: Int64
        /// Set once the request was deferred: the answer comes through `complete`.
        var ticket: ControlTicket?
    }

    /// What a handler returns to answer later.
    public static let deferred = "\u{0}deferred"
    /// A deferred request is given up (with an error answer) after this long.
    public static let maximumDeferralMs: Int64 = 600_000

    /// The ticket of the request being handled, valid during the `handle` call.
    public private(set) var currentTicket = ControlTicket(rawValue: 0)
    private var nextTicket: UInt64 = 1
    private var hungUp: [ControlTicket] = []

    private var clients: [Client] = []
    public private(set) var refusedClients: UInt64 = 0

    /// Binds `path` (replacing a stale socket file) with `mode`, and the group named `group` when it exists.
    public init(path: String, mode: mode_t = 0o660, group: String? = nil, maximumClients: Int = 4) throws(ControlSocketError) {
        self.path = path
        self.maximumClients = maximumClients
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ControlSocketError(path: path, operation: "create", errnoCode: errno) }
        unlink(path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw ControlSocketError(path: path, operation: "bind (path too long)", errnoCode: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw ControlSocketError(path: path, operation: "bind", errnoCode: code)
        }
        chmod(path, mode)
        if let group, let entry = getgrnam(group) { _ = chown(path, uid_t.max, entry.pointee.gr_gid) }
        guard listen(fd, 8) == 0 else {
            let code = errno
            close(fd)
            throw ControlSocketError(path: path, operation: "listen", errnoCode: code)
        }
        listener = fd
        clients.reserveCapacity(maximumClients)
    }

    deinit {
        for client in clients { close(client.descriptor) }
        close(listener)
        unlink(path)
    }

    /// The listener and every client, for the service's poll set.
    public var pollDescriptors: [Int32] { [listener] + clients.map(\.descriptor) }

    /// Accepts new clients and answers complete requests with `handle`; drops clients idle past `timeoutMs`.
    public func service(nowMs: Int64, timeoutMs: Int64 = 5_000, handle: (String) -> String) {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { break }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if clients.count >= maximumClients {
                refusedClients += 1
                let busy = Array("error: busy\n".utf8)
                _ = busy.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            clients.append(Client(descriptor: fd, request: [], openedAtMs: nowMs, ticket: nil))
        }
        var index = 0
        while index < clients.count {
            var finished = false
            if let ticket = clients[index].ticket {
                // Waiting for its answer: only a hang-up (or the deferral limit) ends it early.
                if peerClosed(clients[index].descriptor) {
                    hungUp.append(ticket)
                    finished = true
                } else if nowMs - clients[index].openedAtMs > Self.maximumDeferralMs {
                    hungUp.append(ticket)
                    writeAll(clients[index].descriptor, Array("error: no answer in time\n".utf8))
                    finished = true
                }
                if finished {
                    close(clients[index].descriptor)
                    clients.remove(at: index)
                } else {
                    index += 1
                }
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(clients[index].descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    clients[index].request += buffer[0..<count]
                    if clients[index].request.count > ControlSocketServer.maximumRequestBytes { finished = true; break }
                    if clients[index].request.contains(0x0A) { break }
                    continue
                }
                if count == 0 { finished = true }
                break
            }
            let request = clients[index].request
            if let newline = request.firstIndex(of: 0x0A) {
                let line = String(decoding: request[..<newline], as: UTF8.self)
                currentTicket = ControlTicket(rawValue: nextTicket)
                nextTicket += 1
                let answer = handle(line)
                if answer == Self.deferred {
                    clients[index].ticket = currentTicket
                } else {
                    writeAll(clients[index].descriptor, Array(answer.utf8))
                    finished = true
                }
            } else if nowMs - clients[index].openedAtMs > timeoutMs {
                finished = true
            }
            if finished {
                close(clients[index].descriptor)
                clients.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Answers a deferred request and closes its connection; false when its client is gone.
    @discardableResult
    public func complete(_ ticket: ControlTicket, with answer: String) -> Bool {
        guard let index = clients.firstIndex(where: { $0.ticket == ticket }) else { return false }
        writeAll(clients[index].descriptor, Array(answer.utf8))
        close(clients[index].descriptor)
        clients.remove(at: index)
        return true
    }

    /// Deferred requests whose clients hung up (or ran out of time) since the last call.
    public func takeHungUp() -> [ControlTicket] {
        defer { hungUp.removeAll() }
        return hungUp
    }

    /// Requests waiting for a deferred answer.
    public var deferredCount: Int { clients.count { $0.ticket != nil } }

    /// Whether the peer closed its end (reads give end of file, or an error other than "try again").
    private func peerClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK))
        if count == 0 { return true }
        if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR }
        // Stray bytes after the request line: drop them, the request stands.
        var sink = [UInt8](repeating: 0, count: 256)
        _ = sink.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return false
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        var attempts = 0
        while offset < bytes.count && attempts < 1_000 {
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 100)
                attempts += 1
            } else {
                return
            }
        }
    }
}

/// One deferred control request, for `ControlSocketServer.complete(_:with:)`.
public struct ControlTicket: Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// The CLI's side: one request, the whole answer.
public enum ControlSocketClient {
    /// Sends `request` and returns the answer; nil when no service listens at `path`.
    public static func ask(path: String, request: String, timeoutMs: Int32 = 5_000) -> String? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return nil }
        let line = Array((request + "\n").utf8)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, timeoutMs) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
