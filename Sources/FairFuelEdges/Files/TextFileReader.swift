#if canImport(Glibc)
import Glibc
#endif

/// Reads a file line by line through a fixed buffer, without Foundation.
///
/// Lines are handed out without their LF (a CR before it is kept for the
/// parser to judge). A line longer than `maximumLineBytes` is cut there and
/// reported through `truncated`, so hostile input cannot grow memory.
public struct TextFileReader {
    public let path: String
    public let maximumLineBytes: Int

    public init(path: String, maximumLineBytes: Int = 1 << 20) {
        self.path = path
        self.maximumLineBytes = maximumLineBytes
    }

    /// Calls `body` with each line and whether it was cut at `maximumLineBytes`.
    /// `body` returns false to stop early.
    public func forEachLine<E: Error>(
        _ body: (ArraySlice<UInt8>, _ truncated: Bool) throws(E) -> Bool
    ) throws(E) -> Result<Void, FileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(FileError(path: path, operation: "open", errnoCode: errno))
        }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var line: [UInt8] = []
        line.reserveCapacity(256)
        var truncated = false
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(path: path, operation: "read", errnoCode: errno))
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                append(chunk[start..<index], to: &line, truncated: &truncated)
                let keepGoing = try body(line[...], truncated)
                line.removeAll(keepingCapacity: true)
                truncated = false
                if !keepGoing { return .success(()) }
                start = index + 1
            }
            append(chunk[start..<count], to: &line, truncated: &truncated)
        }
        if !line.isEmpty || truncated {
            _ = try body(line[...], truncated)
        }
        return .success(())
    }

    private func append(_ bytes: ArraySlice<UInt8>, to line: inout [UInt8], truncated: inout Bool) {
        let room = maximumLineBytes - line.count
        if bytes.count <= room {
            line.append(contentsOf: bytes)
        } else {
            line.append(contentsOf: bytes.prefix(max(room, 0)))
            truncated = true
        }
    }

    /// The whole file; for small files such as configuration.
    /// Only a regular file is read (`RegularFile`): a FIFO or a device at `path` is refused at once.
    public static func readAll(path: String, maximumBytes: Int = 16 << 20) -> Result<[UInt8], FileError> {
        let fd: Int32
        do { fd = try RegularFile.openForReading(path) } catch { return .failure(error) }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while out.count < maximumBytes {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(path: path, operation: "read", errnoCode: errno))
            }
            if count == 0 { break }
            out.append(contentsOf: chunk[0..<count])
        }
        return .success(out)
    }
}
