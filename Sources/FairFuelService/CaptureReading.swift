import FairFuelCore
import FairFuelEdges
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
public struct CaptureReading {
    public let path: String
    public let direction: CaptureDirection

    /// `direction` picks the lines to decode: `.rx` (MCU to host) or `.tx`.
    public init(path: String, direction: CaptureDirection = .rx) {
        self.path = path
        self.direction = direction
    }

    /// Calls `handle` with each decoder output and the capture time of the line
    /// that completed it; returns the decoder's counters at the end.
    public func run(_ handle: (_ timeMs: UInt64, DecoderOutput) -> Void) throws(CaptureReadError) -> LinkCounters {
        var parser = CaptureParser()
        var decoder = FrameDecoder(sender: direction == .rx ? .mcu : .host)
        var formatError: CaptureError?
        let result = TextFileReader(path: path).forEachLine { line, truncated in
            do throws(CaptureError) {
                guard let record = try parser.parse(line: line) else { return true }
                guard record.direction == direction else { return true }
                decoder.decode(record.bytes) { handle(record.timeMs, $0) }
                return true
            } catch {
                formatError = error
                return false
            }
        }
        if case let .failure(error) = result { throw .file(error) }
        if let formatError { throw .format(path: path, formatError) }
        do { try parser.finish() } catch { throw .format(path: path, error) }
        decoder.finish()
        return decoder.counters
    }
}
