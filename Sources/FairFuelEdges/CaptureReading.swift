import FairFuelCore
import FairFuelLink

/// Why a capture could not be read: the file, or a line of it.
public enum CaptureReadError: Error, Sendable, CustomStringConvertible {
    case file(FileError)
    case format(path: String, CaptureError)

    public var description: String {
        switch self {
        case let .file(error): error.description
        case let .format(path, error): "\(path): \(error)"
        }
    }
}

/// Feeds a `.ffcap` file through the frame decoder, as the live link would.
///
/// The capture is streamed through `TextFileReader`'s fixed buffer, so a capture of any
/// length (a 24-hour soak is about 800 MB) is read with constant memory.
public struct CaptureReading {
    /// The capture file; `-` reads standard input (a pipe from `fairfuel synth-capture`).
    public let path: String
    public let direction: CaptureDirection

    /// The name of standard input in `path`.
    public static let standardInput = "-"

    /// `direction` picks the lines to decode: `.rx` (MCU to host) or `.tx`.
    public init(path: String, direction: CaptureDirection = .rx) {
        self.path = path
        self.direction = direction
    }

    /// The path as errors name it.
    public var displayName: String { path == Self.standardInput ? "standard input" : path }

    /// What tells this capture from any other: FNV-1a 64 over its lines, with their count, so that
    /// a store can say it has replayed it before (its trips stored twice would be billed twice).
    /// Nil for standard input or a pipe (anything but a regular file), which can be read only once.
    public func fingerprint() throws(CaptureReadError) -> String? {
        guard path != Self.standardInput, (try? FileOperations.kind(of: path)) == .regularFile else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var lines = 0
        let result = TextFileReader(path: path).forEachLine { line, _ in
            for byte in line { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ UInt64(UInt8(ascii: "\n"))) &* 0x0000_0100_0000_01B3
            lines += 1
            return true
        }
        if case let .failure(error) = result {
            throw .file(FileError(path: displayName, operation: error.operation, errnoCode: error.errnoCode))
        }
        return "fnv1a64:\(String(hash, radix: 16)):\(lines)"
    }

    /// Calls `handle` with the bytes and capture time of each line in `direction`, in order;
    /// the slice is valid only during the call.
    public func forEachRead(_ handle: (_ timeMs: UInt64, _ bytes: ArraySlice<UInt8>) -> Void) throws(CaptureReadError) {
        var parser = CaptureParser()
        var formatError: CaptureError?
        // /dev/stdin is the process's descriptor 0 on Linux, a pipe included.
        let file = path == Self.standardInput ? "/dev/stdin" : path
        let result = TextFileReader(path: file).forEachLine { line, truncated in
            do throws(CaptureError) {
                guard let record = try parser.parse(line: line) else { return true }
                guard record.direction == direction else { return true }
                handle(record.timeMs, record.bytes)
                return true
            } catch {
                formatError = error
                return false
            }
        }
        if case let .failure(error) = result {
            throw .file(FileError(path: displayName, operation: error.operation, errnoCode: error.errnoCode))
        }
        if let formatError { throw .format(path: displayName, formatError) }
        do { try parser.finish() } catch { throw .format(path: displayName, error) }
    }

    /// Calls `handle` with each decoder output and the capture time of the line
    /// that completed it; returns the decoder's counters at the end.
    public func run(_ handle: (_ timeMs: UInt64, DecoderOutput) -> Void) throws(CaptureReadError) -> LinkCounters {
        var decoder = FrameDecoder(sender: direction == .rx ? .mcu : .host)
        try forEachRead { timeMs, bytes in
            decoder.decode(bytes) { handle(timeMs, $0) }
        }
        decoder.finish()
        return decoder.counters
    }
}
