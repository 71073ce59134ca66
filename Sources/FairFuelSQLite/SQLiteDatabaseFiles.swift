#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// The files of one database (`path`, `path-wal`, `path-shm`) as the file system sees them.
public struct SQLiteDatabaseFiles: Sendable, Equatable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public var walPath: String { path + "-wal" }
    public var sharedMemoryPath: String { path + "-shm" }
    /// A file of reserved space beside the database, given up when the disk fills.
    public var reservePath: String { path + "-reserve" }

    /// Size in bytes of the file at `path`, or nil when it does not exist.
    public static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    public var exists: Bool { Self.size(of: path) != nil }

    /// The device and inode of the file at `path`, nil when there is none: tells whether the path
    /// still names the file a connection has open (deleted or replaced under it).
    public static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Moves `from` over `to` (same file system, atomically); false when it cannot.
    public static func moveFile(_ from: String, to: String) -> Bool {
        rename(from, to) == 0
    }

    /// Removes the file at `path`, if any.
    public static func remove(_ path: String) { _ = unlink(path) }

    /// Syncs the file at `path` to disk; false when it cannot be opened or synced.
    @discardableResult
    public static func sync(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        return fsync(descriptor) == 0
    }

    /// Bytes the database, its WAL and the reserve take (the shared-memory index is not counted:
    /// it is a few pages at most).
    public var bytesOnDisk: Int64 { (Self.size(of: path) ?? 0) + (Self.size(of: walPath) ?? 0) + (Self.size(of: reservePath) ?? 0) }

    /// Bytes an unprivileged process may still write on the file system holding the database.
    public var freeBytes: Int64? {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Size in bytes of the whole file system holding the database (what a full disk's room is measured against).
    public var fileSystemBytes: Int64? {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return nil }
        return Int64(info.f_blocks) * Int64(info.f_frsize)
    }

    /// The file system holding the database is mounted read-only (an SD card Linux remounted
    /// read-only after errors, say): nothing there can be written until it is writable again.
    public var isOnReadOnlyFileSystem: Bool {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// The file system refuses to create a file beside the database as read-only (`EROFS`):
    /// what an ext4 remounted read-only after errors does while statvfs still says read-write.
    /// Creates and removes a probe file when it is writable, so only for a write that failed.
    public var refusesNewFilesAsReadOnly: Bool {
        let probe = path + "-probe"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno == EROFS }
        _ = close(descriptor)
        _ = unlink(probe)
        return false
    }

    /// The WAL beside the database holds frames (a reader that cannot use the WAL index would miss them).
    public var walHoldsFrames: Bool { (Self.size(of: walPath) ?? 0) > 0 }

    /// Creates the database file empty with `mode` when it does not exist, before SQLite opens
    /// it: SQLite gives its WAL and shared-memory files the database's mode. An existing file
    /// that others may read or write is brought down to `mode`'s bits. False when it cannot.
    @discardableResult
    public func createIfMissing(mode: mode_t) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return true }
        if info.st_mode & 0o777 & ~mode != 0 { _ = fchmod(descriptor, info.st_mode & 0o777 & mode) }
        for companion in [walPath, sharedMemoryPath] {
            var companionInfo = stat()
            if stat(companion, &companionInfo) == 0, companionInfo.st_mode & 0o777 & ~mode != 0 {
                _ = chmod(companion, companionInfo.st_mode & 0o777 & mode)
            }
        }
        return true
    }

    /// Allocates the reserve file (`fallocate`: blocks are claimed, nothing is written).
    /// Returns false, leaving no file, when the space is not there.
    public func createReserve(bytes: Int64) -> Bool {
        guard bytes > 0 else { return false }
        let descriptor = open(reservePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        #if canImport(Glibc)
        let result = posix_fallocate(descriptor, 0, off_t(bytes))
        #else
        let result = ftruncate(descriptor, off_t(bytes)) == 0 ? 0 : errno  // sparse: a development host only
        #endif
        if result == 0 { _ = fsync(descriptor) }
        _ = close(descriptor)
        if result != 0 { _ = unlink(reservePath) }
        return result == 0
    }

    /// Deletes the reserve file, giving its space to the file system; false when there was none.
    @discardableResult
    public func releaseReserve() -> Bool {
        unlink(reservePath) == 0
    }

    /// Renames the database and its WAL and shared-memory files to `path + suffix` (SQLite's
    /// names, so the pair still opens), then syncs the directory. Nothing is deleted.
    /// Returns the new database path.
    @discardableResult
    public func moveAside(suffix: String) throws(SQLiteError) -> String {
        let target = path + suffix
        for (from, to) in [(walPath, target + "-wal"), (sharedMemoryPath, target + "-shm"), (path, target)] {
            guard Self.size(of: from) != nil else { continue }
            guard Self.size(of: to) == nil else {
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot move \(from) aside: \(to) already exists")
            }
            if rename(from, to) != 0 {
                let reason = String(cString: strerror(errno))
                throw SQLiteError(code: SQLITE_IOERR, message: "cannot move \(from) to \(to): \(reason)")
            }
        }
        syncDirectory()
        return target
    }

    /// A suffix not yet taken: `.corrupt-<stamp>`, else `.corrupt-<stamp>-2`, `-3`, ...
    public func freeSuffix(_ stem: String) -> String {
        var suffix = stem
        var attempt = 2
        while Self.size(of: path + suffix) != nil || Self.size(of: path + suffix + "-wal") != nil {
            suffix = "\(stem)-\(attempt)"
            attempt += 1
        }
        return suffix
    }

    /// The directory holding the database.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes renames and creations in the database's directory durable.
    public func syncDirectory() {
        let descriptor = open(directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}

/// Which file a path named: equal identities are the same file.
public struct FileIdentity: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64
}
