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
    /// The latest line time: 2^53 ms (285 616 years). Replays hand it to the core as host time,
    /// which the link clock turns domain time into, and the domain adds durations to (and the fuel
    /// model carries as a Double): room to spare, and exact.
    public static let maximumTimeMs: UInt64 = 1 << 53

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
    ///
    /// Inlinable only to copy the line into a reused buffer in the caller's module
    /// (specialized there); the parsing itself is concrete code over that buffer.
    @inlinable
    public mutating func parse<C: Collection>(line: C) throws(CaptureError) -> CaptureLine?
    where C.Element == UInt8 {
        lineBuffer.removeAll(keepingCapacity: true)
        lineBuffer.append(contentsOf: line)
        return try parseBufferedLine()
    }

    @usableFromInline var lineBuffer: [UInt8] = []

    @usableFromInline
    mutating func parseBufferedLine() throws(CaptureError) -> CaptureLine? {
        lineNumber += 1
        let line = lineBuffer
        var lower = line.startIndex
        var upper = line.endIndex
        while upper > lower, Self.isBlank(line[upper - 1]) || line[upper - 1] == UInt8(ascii: "\r") { upper -= 1 }
        while lower < upper, Self.isBlank(line[lower]) { lower += 1 }
        let text = line[lower..<upper]
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

        // The three fields, found in place: a line is split without allocating.
        var fields: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
        var fieldCount = 0
        var index = lower
        while index < upper {
            while index < upper, Self.isBlank(line[index]) { index += 1 }
            guard index < upper else { break }
            let fieldStart = index
            while index < upper, !Self.isBlank(line[index]) { index += 1 }
            switch fieldCount {
            case 0: fields.0 = fieldStart..<index
            case 1: fields.1 = fieldStart..<index
            case 2: fields.2 = fieldStart..<index
            default: break
            }
            fieldCount += 1
        }
        guard fieldCount == 3 else {
            throw .malformedLine(
                line: lineNumber,
                reason: "expected '<t_ms> <rx|tx> <hex>', found \(fieldCount) field(s)")
        }
        let timeField = line[fields.0]
        guard let time = Self.decimal(timeField) else {
            throw .malformedLine(
                line: lineNumber,
                reason: "time '\(String(decoding: timeField.prefix(24), as: UTF8.self))' is not a decimal number of milliseconds")
        }
        guard time <= CaptureFormat.maximumTimeMs else {
            throw .malformedLine(
                line: lineNumber, reason: "time '\(time)' ms is beyond the latest a capture can hold (\(CaptureFormat.maximumTimeMs))")
        }
        let directionField = line[fields.1]
        let direction: CaptureDirection
        if directionField.elementsEqual("rx".utf8) {
            direction = .rx
        } else if directionField.elementsEqual("tx".utf8) {
            direction = .tx
        } else {
            let other = String(decoding: directionField.prefix(24), as: UTF8.self)
            throw .malformedLine(line: lineNumber, reason: "direction '\(other)' is neither rx nor tx")
        }
        guard time >= lastTimeMs else {
            throw .timeWentBackwards(line: lineNumber, previousMs: lastTimeMs, timeMs: time)
        }
        let hexField = line[fields.2]
        guard Self.decodeHex(line, fields.2, into: &bytes) else {
            throw .malformedLine(
                line: lineNumber,
                reason: hexField.count % 2 == 1
                    ? "odd number of hex digits (\(hexField.count))" : "bytes are not hex")
        }
        lastTimeMs = time
        return CaptureLine(timeMs: time, direction: direction, bytes: bytes[...])
    }

    /// `bytes` becomes the bytes of the hex digits `line[digits]`; false on bad input.
    /// Written through buffer pointers: replay spends most of its time here, and an
    /// append per byte pays a uniqueness check each time.
    private static func decodeHex(_ line: [UInt8], _ digits: Range<Int>, into bytes: inout [UInt8]) -> Bool {
        guard digits.count % 2 == 0 else { return false }
        let count = digits.count / 2
        if bytes.count > count {
            bytes.removeLast(bytes.count - count)
        } else if bytes.count < count {
            bytes.append(contentsOf: repeatElement(0, count: count - bytes.count))
        }
        return line.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { target in
                var from = digits.lowerBound
                for index in 0..<count {
                    guard let high = Hex.nibble(source[from]), let low = Hex.nibble(source[from + 1]) else { return false }
                    target[index] = high << 4 | low
                    from += 2
                }
                return true
            }
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

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
