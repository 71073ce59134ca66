#if canImport(Glibc)
import Glibc
#endif

/// Whole-file operations without Foundation, for callers above the edges (pull, reports on disk, the CLI):
/// a directory (a unique one too), a file written whole, a rename, a durable append, a removal, what a path is.
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
        try append(path, bytes: bytes, sync: true)
    }

    /// Appends `bytes` to `path` (created readable by its owner only); with `sync`, syncs them too.
    /// Without, a power cut may lose the last lines: for diagnostics written often.
    public static func append(_ path: String, bytes: [UInt8], sync: Bool) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "open", errnoCode: errno) }
        defer { close(descriptor) }
        try writeAll(descriptor, bytes, path: path, operation: "append to")
        guard !sync || fsync(descriptor) == 0 else { throw FileError(path: path, operation: "sync", errnoCode: errno) }
    }

    /// Removes `path`; false when it could not (it did not exist, for one).
    @discardableResult
    public static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Creates a new directory named `prefix` plus six random characters, readable by its owner
    /// only (mkdtemp(3)); its path.
    public static func makeUniqueDirectory(prefix: String) throws(FileError) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FileError(path: prefix + "XXXXXX", operation: "create a unique directory", errnoCode: errno)
        }
        return String(cString: made)
    }

    /// The names in the directory `path`, without `.` and `..`, in no particular order.
    public static func directoryEntries(_ path: String) throws(FileError) -> [String] {
        guard let stream = opendir(path) else { throw FileError(path: path, operation: "open the directory", errnoCode: errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the directory `path`, which must be empty.
    public static func removeDirectory(_ path: String) throws(FileError) {
        guard rmdir(path) == 0 else { throw FileError(path: path, operation: "remove the directory", errnoCode: errno) }
    }

    /// What `path` is, following symbolic links (stat(2)).
    public static func kind(of path: String) throws(FileError) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileError(path: path, operation: "stat", errnoCode: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Whether `path` exists (access(2) with F_OK); false too when a directory on the way cannot be searched.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this process may read `path` (access(2) with R_OK, by the real user id).
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

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
