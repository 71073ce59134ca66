import CPosixShims

#if canImport(Glibc)
import Glibc
#endif

/// Why the control socket could not be set up or used.
public struct ControlSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var errnoCode: Int32
    /// A live service answers at `path` already (its pid when the kernel says).
    public var inUseByPID: Int32?
    /// A socket is bound at `path` already (EADDRINUSE).
    public var isAddressInUse: Bool { errnoCode == EADDRINUSE }
    public var description: String {
        if isAddressInUse {
            return "control socket \(path): another service answers there\(inUseByPID.map { " (pid \($0))" } ?? ""); not taken over"
        }
        return "control socket \(path): cannot \(operation): \(String(cString: strerror(errnoCode)))"
    }
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
///
/// Hostile or stuck clients cannot starve it: a request must arrive within
/// `readDeadlineMs` and an answer leave within `writeDeadlineMs`; the last slot is kept for
/// `status` and `session end` (and either is answered at once, slot or not, when it is
/// already complete on arrival); a peer that is not root, this process's user or a member
/// of the socket's group is refused (SO_PEERCRED). The socket is only created where nothing
/// is, or over a stale socket of this user that no service answers on (checked by connecting).
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
        /// In the slot kept for `status` and `session end`: nothing else is served there.
        var priorityOnly = false
    }

    /// A request must be complete this long after the connection, in milliseconds.
    public static let readDeadlineMs: Int64 = 1_000
    /// The slot kept for priority requests is held this long at most, in milliseconds.
    public static let priorityReadDeadlineMs: Int64 = 250
    /// An answer must be written within this, in milliseconds (a client that does not read loses it).
    public static let writeDeadlineMs: Int32 = 1_000
    /// Requests served even when every slot is taken.
    public static func isPriority(_ request: String) -> Bool { request == "status" || request == "session end" }

    /// Group whose members may connect (with root and this process's user); nil: only those two.
    private let allowedGroup: gid_t?
    /// Clients refused for their credentials.
    public private(set) var refusedPeers: UInt64 = 0

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

    /// Binds `path` with `mode`, and the group named `group` when it exists. Only a stale socket
    /// of ours is replaced; anything else at `path` (a file, a live service's socket) is left
    /// alone and the error says why.
    public init(path: String, mode: mode_t = 0o660, group: String? = nil, maximumClients: Int = 16) throws(ControlSocketError) {
        self.path = path
        self.maximumClients = max(2, maximumClients)
        allowedGroup = group.flatMap { getgrnam($0) }.map { $0.pointee.gr_gid }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ControlSocketError(path: path, operation: "create", errnoCode: errno) }
        do throws(ControlSocketError) {
            try Self.clearStaleSocket(at: path)
        } catch {
            close(fd)
            throw error
        }
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
        if let gid = allowedGroup { _ = chown(path, uid_t.max, gid) }
        var boundFile = stat()
        if lstat(path, &boundFile) == 0 { boundInode = boundFile.st_ino }
        // Room in the backlog for a burst of clients beyond the slots (each is answered or refused at once).
        guard listen(fd, 64) == 0 else {
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
        // Only our own socket: the path may have been replaced since (never unlink someone else's file).
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_ino == boundInode { unlink(path) }
    }

    /// The inode of the socket file we bound, to recognise it at exit.
    private var boundInode: ino_t = 0

    /// The error a service would meet binding `path` when a live service answers there (a
    /// connection is accepted), with that service's pid when the kernel says; nil otherwise
    /// (nothing there, a stale socket, not a socket: `init` decides those). Touches nothing.
    public static func liveService(at path: String) -> ControlSocketError? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        guard ControlSocketClient.connect(probe, path: path) else { return nil }
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        let known = fairfuel_peer_credentials(probe, &pid, &uid, &gid) == 0
        return ControlSocketError(path: path, operation: "bind", errnoCode: EADDRINUSE, inUseByPID: known ? pid : nil)
    }

    /// Removes `path` only when it is a socket of this user that nobody answers on; nothing there is fine.
    static func clearStaleSocket(at path: String) throws(ControlSocketError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlSocketError(path: path, operation: "bind (something that is not a socket is there; not removed)", errnoCode: EEXIST)
        }
        guard info.st_uid == geteuid() || geteuid() == 0 else {
            throw ControlSocketError(path: path, operation: "bind (another user's socket is there; not removed)", errnoCode: EEXIST)
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw ControlSocketError(path: path, operation: "create", errnoCode: errno) }
        defer { close(probe) }
        if ControlSocketClient.connect(probe, path: path) {
            var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
            let known = fairfuel_peer_credentials(probe, &pid, &uid, &gid) == 0
            throw ControlSocketError(path: path, operation: "bind", errnoCode: EADDRINUSE, inUseByPID: known ? pid : nil)
        }
        guard errno == ECONNREFUSED else { throw ControlSocketError(path: path, operation: "probe the socket there", errnoCode: errno) }
        unlink(path)
    }

    /// Whether the peer of `fd` may talk to the service: root, this process's user, or the socket's group.
    private func peerAllowed(_ fd: Int32) -> Bool {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        guard fairfuel_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return false }
        if uid == 0 || uid == geteuid() { return true }
        guard let group = allowedGroup else { return false }
        if gid == group { return true }
        // Supplementary groups: the peer's user's membership as the system lists it.
        guard let user = getpwuid(uid) else { return false }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: 64)
        guard getgrouplist(user.pointee.pw_name, gid, &groups, &count) >= 0 else { return false }
        return groups.prefix(Int(count)).contains(group)
    }

    /// The listener and every client, for the service's poll set.
    public var pollDescriptors: [Int32] { [listener] + clients.map(\.descriptor) }

    /// Accepts new clients and answers complete requests with `handle`; drops clients whose
    /// request is not complete `timeoutMs` after they connected.
    public func service(nowMs: Int64, timeoutMs: Int64 = ControlSocketServer.readDeadlineMs, handle: (String) -> String) {
        var accepted = 0
        var waitsLeft = 4
        while accepted < 4 * maximumClients {
            let fd = accept(listener, nil, nil)
            if fd < 0 { break }
            accepted += 1
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            guard peerAllowed(fd) else {
                refusedPeers += 1
                writeAll(fd, Array("error: permission denied (root, the service's user or its group only)\n".utf8))
                close(fd)
                continue
            }
            // The CLI sends its line right after connecting: most requests are complete already.
            var request = [UInt8](repeating: 0, count: 512)
            var count = request.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && clients.count >= maximumClients - 1 && waitsLeft > 0 {
                // Only the kept slot is left: give a CLI that has just connected 20 ms to send its
                // line (at most a few times a pass, so that a flood cannot stall the loop).
                waitsLeft -= 1
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 20) > 0 { count = request.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            }
            request.removeLast(512 - max(0, count))
            if let newline = request.firstIndex(of: 0x0A), clients.count >= maximumClients - 1 {
                // No ordinary slot: a complete status or session end is answered now, anything else is busy.
                let line = String(decoding: request[..<newline], as: UTF8.self)
                if Self.isPriority(line) {
                    currentTicket = ControlTicket(rawValue: nextTicket)
                    nextTicket += 1
                    writeAll(fd, Array(handle(line).utf8))
                } else {
                    refusedClients += 1
                    writeAll(fd, Array("error: busy\n".utf8))
                }
                close(fd)
                continue
            }
            if clients.count < maximumClients - 1 {
                clients.append(Client(descriptor: fd, request: request, openedAtMs: nowMs, ticket: nil))
            } else if clients.count < maximumClients && !clients.contains(where: \.priorityOnly) {
                clients.append(Client(descriptor: fd, request: request, openedAtMs: nowMs, ticket: nil, priorityOnly: true))
            } else {
                refusedClients += 1
                writeAll(fd, Array("error: busy\n".utf8))
                close(fd)
            }
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
                if clients[index].priorityOnly && !Self.isPriority(line) {
                    refusedClients += 1
                    writeAll(clients[index].descriptor, Array("error: busy (only status and session end now)\n".utf8))
                    close(clients[index].descriptor)
                    clients.remove(at: index)
                    continue
                }
                currentTicket = ControlTicket(rawValue: nextTicket)
                nextTicket += 1
                let answer = handle(line)
                if answer == Self.deferred {
                    clients[index].ticket = currentTicket
                } else {
                    writeAll(clients[index].descriptor, Array(answer.utf8))
                    finished = true
                }
            } else if nowMs - clients[index].openedAtMs > (clients[index].priorityOnly ? min(timeoutMs, Self.priorityReadDeadlineMs) : timeoutMs) {
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

    /// Writes `bytes`, waiting at most `writeDeadlineMs` in all for a client that does not read.
    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        var waitedMs: Int32 = 0
        while offset < bytes.count && waitedMs < Self.writeDeadlineMs {
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 50)
                waitedMs += 50
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

/// How one control request went, as the CLI tells it apart.
public enum ControlExchange: Equatable, Sendable {
    /// The service answered and closed the connection (the answer may be empty).
    case answered(String)
    /// Nothing listens at the path: no socket, or a stale one.
    case noService
    /// A socket accepted the request and no whole answer came in time: a stopped (SIGSTOP,
    /// a debugger) or overloaded service. What arrived, if anything, is left out.
    case noAnswer
    /// Something other than a socket is at the path (`found`: "a regular file", "a FIFO", ...):
    /// a wrong `--control`, refused before anything connects to it or waits on it.
    case notASocket(found: String)
}

/// The CLI's side: one request, the whole answer.
public enum ControlSocketClient {
    /// Sends `request` and returns the answer; nil when no service listens at `path`, and an
    /// empty answer when none came within `timeoutMs` (`exchange` tells the two apart).
    public static func ask(path: String, request: String, timeoutMs: Int32 = 5_000) -> String? {
        switch exchange(path: path, request: request, timeoutMs: timeoutMs) {
        case let .answered(answer): answer
        case .noService, .notASocket: nil
        case .noAnswer: ""
        }
    }

    /// Sends `request` and waits for the whole answer (the service closes after it), at most
    /// `timeoutMs` between two reads.
    public static func exchange(path: String, request: String, timeoutMs: Int32 = 5_000) -> ControlExchange {
        if let found = notASocket(path) { return .notASocket(found: found) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .noService }
        defer { close(fd) }
        guard connect(fd, path: path) else { return .noService }
        let line = Array((request + "\n").utf8)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeoutMs)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return .noAnswer }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return .answered(String(decoding: answer, as: UTF8.self))
    }

    /// What stands at `path` when it is there and not a socket ("a regular file", "a FIFO"); nil for a
    /// socket or nothing at all (then connecting tells whether a service answers).
    public static func notASocket(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFSOCK else { return nil }
        return info.st_mode & S_IFMT == S_IFREG ? "a regular file" : RegularFile.describe(mode: info.st_mode)
    }

    /// Connects `fd` to the socket at `path`; false (errno set) when nobody answers there.
    static func connect(_ fd: Int32, path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return false
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0
    }
}
