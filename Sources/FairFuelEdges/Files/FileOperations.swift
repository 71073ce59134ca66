#if canImport(Glibc)
import Glibc
#endif

/// Whole-file operations without Foundation, for callers above the edges (pull, reports on disk):
/// a directory, a file written whole, a rename, a durable append, a removal.
public enum FileOperations {
    /// Creates the directory `path`; one that exists already is fine.
    public static func makeDirectory(_ path: String, mode: UInt32 = 0o755) throws(FileError) {
        if mkdir(path, mode_t(mode)) != 0 && errno != EEXIST {
            throw FileError(path: path, operation: "create the directory", errnoCode: errno)
        }
    }

    /// Creates (or truncates) `path` readable by its owner only, writes `bytes`, syncs and closes it.
    public static func writeWhole(_ path: String, bytes: [UInt8]) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "create", errnoCode: errno) }
        // An existing file keeps its mode through O_TRUNC: tighten a regular one too.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
        do {
            try writeAll(descriptor, bytes, path: path, operation: "write")
        } catch {
            _ = close(descriptor)
            throw error
        }
        fsync(descriptor)
        guard close(descriptor) == 0 else { throw FileError(path: path, operation: "close", errnoCode: errno) }
    }

    /// Renames `source` to `destination`, replacing it atomically.
    public static func rename(_ source: String, to destination: String) throws(FileError) {
        guard Glibc.rename(source, destination) == 0 else {
            throw FileError(path: destination, operation: "rename \(source) to", errnoCode: errno)
        }
    }

    /// Appends `bytes` to `path` (created readable by its owner only) and syncs them, so that
    /// they survive a power cut once this returns.
    public static func appendDurably(_ path: String, bytes: [UInt8]) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "open", errnoCode: errno) }
        defer { close(descriptor) }
        try writeAll(descriptor, bytes, path: path, operation: "append to")
        guard fsync(descriptor) == 0 else { throw FileError(path: path, operation: "sync", errnoCode: errno) }
    }

    /// Removes `path`; false when it could not (it did not exist, for one).
    @discardableResult
    public static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String, operation: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: operation, errnoCode: errno)
            }
            offset += written
        }
    }
}
