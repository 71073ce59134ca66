import FairFuelEdges
import FairFuelLink

#if canImport(Glibc)
import Glibc
#endif

/// Writes a `.ffcap` capture as a stream of bytes to a file or to standard output,
/// through one fixed buffer: a day of soak traffic never sits in memory.
public final class SoakCaptureWriter {
    /// `-` for standard output.
    public let path: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity = 64 * 1024
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Creates (or truncates) `path`; `-` writes to standard output.
    public init(path: String) throws(FileError) {
        self.path = path
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw FileError(path: path, operation: "create", errnoCode: errno) }
            ownsDescriptor = true
        }
        buffer.reserveCapacity(capacity + 1_024)
    }

    deinit {
        try? flush()
        if ownsDescriptor && descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// A line of text (a header or a comment); the line feed is added.
    public func writeLine(_ text: String) throws(FileError) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= capacity { try flush() }
    }

    /// One data line: `<t_ms> rx <hex>`.
    public func writeRead(timeMs: UInt64, bytes: ArraySlice<UInt8>) throws(FileError) {
        var value = timeMs
        var decimal: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &decimal) { digits in
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0
            buffer.append(contentsOf: digits[(20 - count)...])
        }
        buffer.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "r"), UInt8(ascii: "x"), UInt8(ascii: " ")])
        for byte in bytes {
            buffer.append(Self.digits[Int(byte >> 4)])
            buffer.append(Self.digits[Int(byte & 0x0F)])
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= capacity { try flush() }
    }

    public func flush() throws(FileError) {
        guard descriptor >= 0 else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                throw FileError(path: path == "-" ? "standard output" : path, operation: "write", errnoCode: errno)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes (standard output stays open).
    public func close() throws(FileError) {
        try flush()
        guard ownsDescriptor, descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw FileError(path: path, operation: "close", errnoCode: errno) }
    }
}
