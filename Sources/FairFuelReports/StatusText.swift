import FairFuelCore

/// The service's status JSON as lines a person reads: one `name  value` line per field, a nested
/// object on one line, an array of objects one item a line. Derived from the JSON, so `status`
/// shows exactly what `status --json` has.
public enum StatusText {
    public indirect enum Value {
        case scalar(String)
        case object([(String, Value)])
        case array([Value])
    }

    /// The text, or nil when `json` is not an object this reader understands (then print it as is).
    public static func text(_ json: String) -> String? {
        guard let fields = fields(json) else { return nil }
        var text = ""
        for (name, value) in fields {
            switch value {
            case let .array(items):
                text += pad(name, 22) + (items.isEmpty ? "none" : "\(items.count)") + "\n"
                for item in items { text += "    " + inline(item) + "\n" }
            default:
                text += pad(name, 22) + inline(value) + "\n"
            }
        }
        return text
    }

    /// The status object's top-level fields, or nil when `json` is not an object this reader understands.
    public static func fields(_ json: String) -> [(String, Value)]? {
        var reader = Reader(bytes: Array(json.utf8))
        guard case let .object(fields)? = reader.value(), reader.atEnd else { return nil }
        return fields
    }

    static func pad(_ text: String, _ width: Int) -> String { TerminalText.padded(text, width) }

    static func inline(_ value: Value) -> String {
        switch value {
        case let .scalar(text): TerminalText.escaped(text)
        case let .object(fields): fields.map { "\(TerminalText.escaped($0.0)) \(inline($0.1))" }.joined(separator: ", ")
        case let .array(items): items.map(inline).joined(separator: "; ")
        }
    }

    /// A strict reader of the JSON `JSONLine` writes: objects, arrays, strings, numbers, true, false, null.
    struct Reader {
        var bytes: [UInt8]
        var index = 0

        var atEnd: Bool {
            mutating get {
                skipSpace()
                return index == bytes.count
            }
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() -> Value? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var fields: [(String, Value)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard let name = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let value = value() else { return nil }
                    fields.append((name, value))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "}") { return .object(fields) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [Value] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    guard let item = value() else { return nil }
                    items.append(item)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "]") { return .array(items) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "\""):
                return string().map { .scalar($0) }
            default:
                let start = index
                while index < bytes.count, !",}] \n\r\t".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { return nil }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                return .scalar(word == "null" ? "-" : word)
            }
        }

        /// A JSON string, its escapes undone by the one JSON reader (`JSONLine.readQuoted`).
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            // The closing quote is the first one not escaped; the reader gets exactly that much.
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
            guard end < bytes.count else { return nil }
            var scalars = Substring(decoding: bytes[index...end], as: UTF8.self).unicodeScalars
            guard let text = JSONLine.readQuoted(&scalars) else { return nil }
            index = end + 1
            return text
        }
    }
}
