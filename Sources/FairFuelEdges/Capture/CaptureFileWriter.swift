#if canImport(Glibc)
import Glibc
#endif

/// A text file written through a fixed buffer, without Foundation; `close` syncs it to
/// disk. `-` writes to standard output (left open, not synced).
public final class CaptureFileWriter {
    /// The name of standard output in `path`.
    public static let standardOutput = "-"

    public let path: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity = 64 * 1024

    /// Creates (or truncates) `path` readable by its owner only (captures, exports and pulled files
    /// hold positions); `-` is standard output.
    public init(path: String) throws(FileError) {
        self.path = path
        if path == Self.standardOutput {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw FileError(path: path, operation: "create", errnoCode: errno) }
            // An existing file keeps its mode through O_TRUNC: tighten a regular one too.
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
            ownsDescriptor = true
        }
        buffer.reserveCapacity(capacity + 1_024)
    }

    deinit {
        try? flush()
        if ownsDescriptor && descriptor >= 0 { Glibc.close(descriptor) }
    }

    private var displayName: String { path == Self.standardOutput ? "standard output" : path }

    public func write(_ text: String) throws(FileError) {
        try write(bytes: text.utf8)
    }

    /// Appends raw bytes (already formatted text).
    public func write<C: Collection>(bytes: C) throws(FileError) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    public func flush() throws(FileError) {
        guard descriptor >= 0 else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                buffer.removeAll(keepingCapacity: true)
                throw FileError(path: displayName, operation: "write", errnoCode: code)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, syncs and closes a file; further writes are dropped. Standard output is
    /// only flushed.
    public func close() throws(FileError) {
        guard descriptor >= 0 else { return }
        try flush()
        guard ownsDescriptor else { return }
        fsync(descriptor)
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw FileError(path: path, operation: "close", errnoCode: errno) }
    }
}
