/// Builds one JSON object as text, keys in the order they are added.
///
/// The service and the CLI print line-delimited JSON with stable field order
/// and without Foundation (which the long-running service keeps out of its
/// memory budget).
public struct JSONLine: Sendable {
    public private(set) var text = "{"
    private var isEmpty = true

    public init() {}

    private mutating func key(_ name: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        JSONLine.appendQuoted(name, to: &text)
        text += ":"
    }

    public mutating func add(_ name: String, _ value: String?) {
        key(name)
        if let value { JSONLine.appendQuoted(value, to: &text) } else { text += "null" }
    }

    public mutating func add<I: BinaryInteger>(_ name: String, _ value: I?) {
        key(name)
        text += value.map { String($0) } ?? "null"
    }

    /// Adds a number with at most `decimals` digits after the point (trailing zeros trimmed).
    public mutating func add(_ name: String, _ value: Double?, decimals: Int = 6) {
        key(name)
        guard let value, value.isFinite else {
            text += "null"
            return
        }
        text += JSONLine.formatFixed(value, decimals: decimals)
    }

    public mutating func add(_ name: String, _ value: Bool?) {
        key(name)
        text += value.map { $0 ? "true" : "false" } ?? "null"
    }

    /// Adds an already-encoded JSON value (object or array) verbatim.
    public mutating func addRaw(_ name: String, json: String) {
        key(name)
        text += json
    }

    /// The finished object.
    public var string: String { text + "}" }

    /// `value` rounded half away from zero to `decimals` places, trailing zeros trimmed.
    public static func formatFixed(_ value: Double, decimals: Int) -> String {
        precondition(decimals >= 0 && decimals <= 12)
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e15 else { return String(value) }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let whole = units / divisor
        var fraction = units % divisor
        var out = (value < 0 && units != 0) ? "-" : ""
        out += String(whole)
        if decimals > 0 && fraction != 0 {
            var digits = decimals
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let fractionText = String(fraction)
            out += "."
            out += String(repeating: "0", count: digits - fractionText.count)
            out += fractionText
        }
        return out
    }

    /// Appends `value` as a JSON string literal.
    public static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }

    /// `values` as a JSON array of already-encoded elements.
    public static func array<S: Sequence>(_ values: S) -> String where S.Element == String {
        var out = "["
        var first = true
        for value in values {
            if !first { out += "," }
            first = false
            out += value
        }
        return out + "]"
    }
}
