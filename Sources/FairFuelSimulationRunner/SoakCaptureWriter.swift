import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelSimulation

/// Writes a `.ffcap` capture as a stream to a file or to standard output (`-`), through
/// `CaptureFileWriter`'s fixed buffer: a day of soak traffic never sits in memory.
public final class SoakCaptureWriter {
    public var path: String { file.path }
    private let file: CaptureFileWriter
    /// One data line, formatted in place and reused.
    private var line: [UInt8] = []

    /// Creates (or truncates) `path`; `-` writes to standard output.
    public init(path: String) throws(FileError) {
        file = try CaptureFileWriter(path: path)
        line.reserveCapacity(1_024)
    }

    /// A line of text (a header or a comment); the line feed is added.
    public func writeLine(_ text: String) throws(FileError) {
        try file.write(text)
        try file.write("\n")
    }

    /// One data line: `<t_ms> rx <hex>`.
    public func writeRead(timeMs: UInt64, bytes: ArraySlice<UInt8>) throws(FileError) {
        line.removeAll(keepingCapacity: true)
        let start = line.count
        var value = timeMs
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        } while value > 0
        line[start...].reverse()
        line.append(contentsOf: " rx ".utf8)
        Hex.appendASCII(bytes, to: &line)
        line.append(UInt8(ascii: "\n"))
        try file.write(bytes: line)
    }

    public func flush() throws(FileError) { try file.flush() }

    /// Flushes and closes (standard output stays open).
    public func close() throws(FileError) { try file.close() }
}
