import FairFuelEdges

#if canImport(Glibc)
import Glibc
#endif

/// A text file written through a buffer, without Foundation; `close` syncs it to disk.
public final class CaptureFileWriter {
    public let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// Creates (or truncates) `path`.
    public init(path: String) throws(FileError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "create", errnoCode: errno) }
        buffer.reserveCapacity(64 * 1024)
    }

    deinit {
        if descriptor >= 0 {
            try? flush()
            Glibc.close(descriptor)
        }
    }

    public func write(_ text: String) throws(FileError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 64 * 1024 { try flush() }
    }

    public func flush() throws(FileError) {
        guard descriptor >= 0 else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "write", errnoCode: errno)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, syncs and closes; further writes are dropped.
    public func close() throws(FileError) {
        guard descriptor >= 0 else { return }
        try flush()
        fsync(descriptor)
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw FileError(path: path, operation: "close", errnoCode: errno) }
    }
}
