import FairFuelCore

/// Which way the bytes of a capture line crossed the link.
public enum CaptureDirection: String, Sendable {
    /// MCU to host.
    case rx
    /// Host to MCU.
    case tx
}

/// One data line of a `.ffcap` capture.
public struct CaptureLine: Sendable, Equatable {
    /// Milliseconds since the capture started, on the host's monotonic clock.
    public var timeMs: UInt64
    public var direction: CaptureDirection
    /// The raw link bytes, as they crossed the wire.
    public var bytes: ArraySlice<UInt8>

    public init(timeMs: UInt64, direction: CaptureDirection, bytes: ArraySlice<UInt8>) {
        self.timeMs = timeMs
        self.direction = direction
        self.bytes = bytes
    }
}

/// Why a capture could not be read; every case names the 1-based line.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingHeader(line: Int)
    case unsupportedVersion(line: Int, header: String)
    case malformedLine(line: Int, reason: String)
    case timeWentBackwards(line: Int, previousMs: UInt64, timeMs: UInt64)
    case emptyCapture

    public var line: Int? {
        switch self {
        case let .missingHeader(line), let .unsupportedVersion(line, _), let .malformedLine(line, _),
            let .timeWentBackwards(line, _, _):
            line
        case .emptyCapture: nil
        }
    }

    public var description: String {
        switch self {
        case let .missingHeader(line):
            "line \(line): not a fairfuel capture (expected '\(CaptureFormat.header)' first)"
        case let .unsupportedVersion(line, header):
            "line \(line): unsupported capture header '\(header)' (this build reads '\(CaptureFormat.header)')"
        case let .malformedLine(line, reason):
            "line \(line): \(reason)"
        case let .timeWentBackwards(line, previous, time):
            "line \(line): time \(time) ms is before the previous line's \(previous) ms"
        case .emptyCapture:
            "the capture is empty (no '\(CaptureFormat.header)' header)"
        }
    }
}

/// The `.ffcap` text format: a header line, then `<t_ms> <rx|tx> <hex>` lines.
public enum CaptureFormat {
    public static let header = "# fairfuel capture v1"

    /// One data line for `bytes` (lower-case hex), without the line feed.
    public static func line<C: Collection>(timeMs: UInt64, direction: CaptureDirection, bytes: C)
        -> String where C.Element == UInt8
    {
        var text = String(timeMs)
        text += " "
        text += direction.rawValue
        text += " "
        Hex.append(bytes, to: &text)
        return text
    }
}

/// Reads a capture one line at a time, checking the header and the line syntax.
///
/// The bytes of the last line are kept in a buffer that is reused, so reading
/// a long capture allocates only while that buffer grows to the longest line.
public struct CaptureParser: Sendable {
    public private(set) var lineNumber = 0
    private var sawHeader = false
    private var lastTimeMs: UInt64 = 0
    private var bytes: [UInt8] = []

    public init() {}

    /// Parses the next line (without its line feed; a trailing CR is allowed).
    /// Returns nil for the header, blank lines and comments.
    public mutating func parse<C: Collection>(line: C) throws(CaptureError) -> CaptureLine?
    where C.Element == UInt8 {
        lineNumber += 1
        var text = Array(line)[...]
        while let last = text.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            text.removeLast()
        }
        while let first = text.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            text.removeFirst()
        }
        if !sawHeader {
            if text.isEmpty { return nil }
            let header = String(decoding: text, as: UTF8.self)
            if header == CaptureFormat.header {
                sawHeader = true
                return nil
            }
            if header.hasPrefix("# fairfuel capture") {
                throw .unsupportedVersion(line: lineNumber, header: header)
            }
            throw .missingHeader(line: lineNumber)
        }
        if text.isEmpty || text.first == UInt8(ascii: "#") { return nil }

        let fields = text.split(
            omittingEmptySubsequences: true,
            whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        guard fields.count == 3 else {
            throw .malformedLine(
                line: lineNumber,
                reason: "expected '<t_ms> <rx|tx> <hex>', found \(fields.count) field(s)")
        }
        guard let time = Self.decimal(fields[0]) else {
            throw .malformedLine(
                line: lineNumber,
                reason: "time '\(String(decoding: fields[0].prefix(24), as: UTF8.self))' is not a decimal number of milliseconds")
        }
        let direction: CaptureDirection
        switch String(decoding: fields[1], as: UTF8.self) {
        case "rx": direction = .rx
        case "tx": direction = .tx
        case let other:
            throw .malformedLine(line: lineNumber, reason: "direction '\(other.prefix(24))' is neither rx nor tx")
        }
        guard time >= lastTimeMs else {
            throw .timeWentBackwards(line: lineNumber, previousMs: lastTimeMs, timeMs: time)
        }
        bytes.removeAll(keepingCapacity: true)
        guard Hex.decode(fields[2], into: &bytes) else {
            throw .malformedLine(
                line: lineNumber,
                reason: fields[2].count % 2 == 1
                    ? "odd number of hex digits (\(fields[2].count))" : "bytes are not hex")
        }
        lastTimeMs = time
        return CaptureLine(timeMs: time, direction: direction, bytes: bytes[...])
    }

    /// Call at the end of input: a capture without its header is an error.
    public func finish() throws(CaptureError) {
        if !sawHeader { throw .emptyCapture }
    }

    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// All data lines of a whole capture text (copies; for tests and small files).
    public static func parseAll(_ text: String) throws(CaptureError) -> [CaptureLine] {
        var parser = CaptureParser()
        var lines: [CaptureLine] = []
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if let record = try parser.parse(line: line) {
                lines.append(CaptureLine(timeMs: record.timeMs, direction: record.direction, bytes: ArraySlice(Array(record.bytes))))
            }
        }
        try parser.finish()
        return lines
    }
}
