/// A JSON value as an uplink message or a fleet command holds it: objects, arrays, strings, and numbers, booleans
/// and null kept as their text (a number is read by the field that wants it, at its own type).
public indirect enum JSONValue: Sendable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// A number, `true`, `false` or `null`, as written.
    case literal(String)

    /// Deepest nesting of objects and arrays read; a record message has three levels. Deeper
    /// input is refused rather than read by a recursion that would run off the stack.
    public static let maximumDepth = 16

    /// Nil when `text` is not one JSON value, or nests deeper than `maximumDepth`.
    public init?(_ text: String) {
        var scalars = Substring(text).unicodeScalars
        guard let value = Self.read(&scalars, depth: 0) else { return nil }
        Self.skipSpace(&scalars)
        guard scalars.isEmpty else { return nil }
        self = value
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(fields) = self, let value = fields[key], value != .literal("null") { return value }
        return nil
    }

    public var string: String? { if case let .string(text) = self { text } else { nil } }
    public var int: Int64? { if case let .literal(text) = self { Int64(text) } else { nil } }
    public var double: Double? { if case let .literal(text) = self { Double(text) } else { nil } }
    public var bool: Bool? { if case let .literal(text) = self { text == "true" ? true : text == "false" ? false : nil } else { nil } }
    public var array: [JSONValue] { if case let .array(items) = self { items } else { [] } }

    /// Whether `text` is a number as JSON writes one: `-`, digits without a leading zero, then
    /// optional fraction and exponent. Not `nan`, `inf` or hex, which `Double(_:)` would also take.
    public static func isNumber(_ text: String) -> Bool {
        var rest = Substring(text).utf8[...]
        func digits() -> Int {
            var count = 0
            while let c = rest.first, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { rest.removeFirst(); count += 1 }
            return count
        }
        if rest.first == UInt8(ascii: "-") { rest.removeFirst() }
        let leadingZero = rest.first == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !leadingZero || whole == 1 else { return false }
        if rest.first == UInt8(ascii: ".") {
            rest.removeFirst()
            guard digits() > 0 else { return false }
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest.removeFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }

    private static func skipSpace(_ scalars: inout Substring.UnicodeScalarView) {
        while let c = scalars.first, c == " " || c == "\n" || c == "\r" || c == "\t" { scalars.removeFirst() }
    }

    private static func read(_ scalars: inout Substring.UnicodeScalarView, depth: Int) -> JSONValue? {
        skipSpace(&scalars)
        guard let first = scalars.first else { return nil }
        if (first == "{" || first == "[") && depth >= maximumDepth { return nil }
        switch first {
        case "{":
            scalars.removeFirst()
            var fields: [String: JSONValue] = [:]
            skipSpace(&scalars)
            if scalars.first == "}" { scalars.removeFirst(); return .object(fields) }
            while true {
                skipSpace(&scalars)
                guard let key = JSONLine.readQuoted(&scalars) else { return nil }
                skipSpace(&scalars)
                guard scalars.first == ":" else { return nil }
                scalars.removeFirst()
                guard let value = read(&scalars, depth: depth + 1) else { return nil }
                fields[key] = value
                skipSpace(&scalars)
                guard let next = scalars.popFirst() else { return nil }
                if next == "}" { return .object(fields) }
                guard next == "," else { return nil }
            }
        case "[":
            scalars.removeFirst()
            var items: [JSONValue] = []
            skipSpace(&scalars)
            if scalars.first == "]" { scalars.removeFirst(); return .array(items) }
            while true {
                guard let value = read(&scalars, depth: depth + 1) else { return nil }
                items.append(value)
                skipSpace(&scalars)
                guard let next = scalars.popFirst() else { return nil }
                if next == "]" { return .array(items) }
                guard next == "," else { return nil }
            }
        case "\"":
            return JSONLine.readQuoted(&scalars).map(JSONValue.string)
        default:
            var text = ""
            while let c = scalars.first, c != ",", c != "}", c != "]", c != " ", c != "\n", c != "\r", c != "\t" {
                text.unicodeScalars.append(c)
                scalars.removeFirst()
            }
            guard text == "true" || text == "false" || text == "null" || isNumber(text) else { return nil }
            return .literal(text)
        }
    }
}
