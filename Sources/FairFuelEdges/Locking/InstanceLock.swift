#if canImport(Glibc)
import Glibc
#endif

/// Why `fairfuel run` may not start: another process holds the store or the MCU port, or
/// another service answers on the control socket.
public struct InstanceLockError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Resource: String, Sendable { case store, port, controlSocket = "control socket" }
    public var resource: Resource
    public var path: String
    /// The holder's process id, when /proc/locks shows it.
    public var holderPID: Int32?
    /// Set when the lock could not be tried at all (the file cannot be opened).
    public var errnoCode: Int32?

    public var description: String {
        if let errnoCode { return "cannot lock the \(resource.rawValue) \(path): \(String(cString: strerror(errnoCode)))" }
        if resource == .controlSocket {
            return ControlSocketError(path: path, operation: "bind", errnoCode: EADDRINUSE, inUseByPID: holderPID).description
        }
        let holder = holderPID.map { "process \($0)" } ?? "another process"
        return "the \(resource.rawValue) \(path) is in use by \(holder) (another `fairfuel run`?); stop it first"
    }
}

/// One service per store and per MCU port: an exclusive `flock` on the store file, held for
/// the life of the process, and on the port's device when it is opened. Every refusal comes
/// before anything is created: an existing store is locked first (a second instance gets the
/// holder's pid), then the port and the control socket are probed, and only then is a missing
/// store file created (0600), so that a refused second service (a typo'd `--db`) leaves nothing.
///
/// flock locks are apart from SQLite's POSIX record locks on the same file, and the
/// descriptor is never closed before exit (closing it would drop SQLite's locks too). When
/// the store is written back after a deletion, the lock moves to the new file
/// (`lockStoreReplacement(at:)`).
public final class InstanceLock {
    public let storePath: String
    private var storeDescriptor: Int32
    /// The descriptor the lock was on before it moved to a written-back file, kept until SQLite
    /// has closed that file (`closeRetiredStoreDescriptor()`); -1 when none.
    private var retiredDescriptor: Int32 = -1

    /// Locks `storePath`; when `portPath` exists, checks that nobody holds it (the port itself is
    /// locked by `lockPort` on the descriptor the service reads it through); when a service
    /// answers on `controlSocketPath`, refuses (its pid in the error).
    public init(storePath: String, portPath: String?, controlSocketPath: String? = nil) throws(InstanceLockError) {
        self.storePath = storePath
        // An existing store first: a second service on it is told whose it is, whatever else it shares.
        var fd = open(storePath, O_RDWR | O_CLOEXEC)
        // A store on a read-only file system (an SD card remounted after errors) is locked
        // through a read-only descriptor: flock needs none other, and the service still runs on it.
        if fd < 0 && errno == EROFS { fd = open(storePath, O_RDONLY | O_CLOEXEC) }
        if fd >= 0 {
            try Self.lockOrThrow(fd, path: storePath)
        } else if errno != ENOENT {
            throw InstanceLockError(resource: .store, path: storePath, errnoCode: errno)
        }
        do throws(InstanceLockError) {
            try Self.checkPort(portPath)
            if let controlSocketPath, let live = ControlSocketServer.liveService(at: controlSocketPath) {
                throw InstanceLockError(resource: .controlSocket, path: controlSocketPath, holderPID: live.inUseByPID)
            }
        } catch {
            if fd >= 0 { close(fd) }
            throw error
        }
        if fd < 0 {
            fd = open(storePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw InstanceLockError(resource: .store, path: storePath, errnoCode: errno) }
            try Self.lockOrThrow(fd, path: storePath)
        }
        storeDescriptor = fd
    }

    /// Takes the exclusive lock on the store file open at `fd`; closes it and throws with the holder's pid if taken.
    private static func lockOrThrow(_ fd: Int32, path: String) throws(InstanceLockError) {
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = holder(of: fd)
            close(fd)
            throw InstanceLockError(resource: .store, path: path, holderPID: holder)
        }
    }

    /// Throws when another process holds the port at `portPath` (nothing there is fine).
    private static func checkPort(_ portPath: String?) throws(InstanceLockError) {
        guard let portPath else { return }
        // A probe: opening a tty without O_NOCTTY could make it our terminal; non-blocking so a modem line never waits.
        let probe = open(portPath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard probe >= 0 else { return }
        defer { close(probe) }
        if flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK {
            throw InstanceLockError(resource: .port, path: portPath, holderPID: holder(of: probe))
        }
    }

    /// Moves the store lock to the file at `path`: a copy of the store about to be renamed over
    /// `storePath` (written back after a deletion), so that the lock follows the file the service
    /// uses and a second service on it is refused. False when the copy cannot be opened or locked.
    public func lockStoreReplacement(at path: String) -> Bool {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return false
        }
        if retiredDescriptor >= 0 {
            close(storeDescriptor)  // the copy of an attempt that failed; the store's own file stays retired
        } else {
            retiredDescriptor = storeDescriptor
        }
        storeDescriptor = fd
        return true
    }

    /// Closes the descriptor of the file the lock was on before it moved, once SQLite has closed
    /// that file (closing it earlier would drop SQLite's POSIX locks on it); it frees the deleted
    /// file's blocks.
    public func closeRetiredStoreDescriptor() {
        guard retiredDescriptor >= 0 else { return }
        close(retiredDescriptor)
        retiredDescriptor = -1
    }

    deinit {
        closeRetiredStoreDescriptor()
        close(storeDescriptor)
    }

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
