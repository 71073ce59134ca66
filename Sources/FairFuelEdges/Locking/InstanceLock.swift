#if canImport(Glibc)
import Glibc
#endif

/// Why `fairfuel run` may not start: another process holds the store or the MCU port.
public struct InstanceLockError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Resource: String, Sendable { case store, port }
    public var resource: Resource
    public var path: String
    /// The holder's process id, when /proc/locks shows it.
    public var holderPID: Int32?
    /// Set when the lock could not be tried at all (the file cannot be opened).
    public var errnoCode: Int32?

    public var description: String {
        if let errnoCode { return "cannot lock the \(resource.rawValue) \(path): \(String(cString: strerror(errnoCode)))" }
        let holder = holderPID.map { "process \($0)" } ?? "another process"
        return "the \(resource.rawValue) \(path) is in use by \(holder) (another `fairfuel run`?); stop it first"
    }
}

/// One service per store and per MCU port: an exclusive `flock` on the store file (created
/// 0600 if missing), held for the life of the process, and on the port's device when it is
/// opened. Taken before anything else is touched; a second instance gets the holder's pid.
///
/// flock locks are apart from SQLite's POSIX record locks on the same file, and the
/// descriptor is never closed before exit (closing it would drop SQLite's locks too).
public final class InstanceLock {
    public let storePath: String
    private let storeDescriptor: Int32

    /// Locks `storePath`; when `portPath` exists, checks that nobody holds it (the port itself is
    /// locked by `lockPort` on the descriptor the service reads it through).
    public init(storePath: String, portPath: String?) throws(InstanceLockError) {
        self.storePath = storePath
        let fd = open(storePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw InstanceLockError(resource: .store, path: storePath, errnoCode: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(of: fd)
            close(fd)
            throw InstanceLockError(resource: .store, path: storePath, holderPID: holder)
        }
        storeDescriptor = fd
        if let portPath {
            // A probe: opening a tty without O_NOCTTY could make it our terminal; non-blocking so a modem line never waits.
            let probe = open(portPath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            if probe >= 0 {
                defer { close(probe) }
                if flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK {
                    let holder = Self.holder(of: probe)
                    close(fd)
                    throw InstanceLockError(resource: .port, path: portPath, holderPID: holder)
                }
            }
        }
    }

    deinit { close(storeDescriptor) }

    /// Takes the exclusive lock on an opened port's descriptor (released when it closes); nil
    /// when it is ours, else the error naming the holder.
    public static func lockPort(descriptor: Int32, path: String) -> InstanceLockError? {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return nil }
        return InstanceLockError(resource: .port, path: path, holderPID: errno == EWOULDBLOCK ? holder(of: descriptor) : nil)
    }

    /// The pid /proc/locks gives for a FLOCK on the file behind `descriptor` held by another process.
    static func holder(of descriptor: Int32) -> Int32? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let major = (info.st_dev >> 8) & 0xFFF | (info.st_dev >> 32) & ~0xFFF
        let minor = info.st_dev & 0xFF | (info.st_dev >> 12) & ~0xFF
        let key = String(major, radix: 16, uppercase: false).leftPadded(2) + ":" + String(minor, radix: 16).leftPadded(2) + ":\(info.st_ino)"
        let fd = open("/proc/locks", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while text.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            text += chunk[0..<count]
        }
        let me = getpid()
        for line in text.split(separator: 0x0A) {
            // "1: FLOCK  ADVISORY  WRITE 28680 fe:00:16220263 0 EOF"
            let fields = line.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == key, let pid = Int32(fields[4]), pid != me else { continue }
            return pid
        }
        return nil
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
