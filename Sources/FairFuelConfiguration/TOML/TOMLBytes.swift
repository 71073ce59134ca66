/// Byte constants and classes for `TOMLParser` and `TOMLWriter`.
enum TOMLBytes {
    static let tab: UInt8 = 0x09
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let apostrophe = UInt8(ascii: "'")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let equals = UInt8(ascii: "=")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
    static let underscore = UInt8(ascii: "_")
    static let openBrace = UInt8(ascii: "{")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Control characters that TOML forbids outside escapes: all but tab.
    static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != tab) || byte == 0x7F }

    static func isBareKey(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == underscore || byte == minus
    }

    static func endsBareValue(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == comma || byte == closeBracket || byte == hash || byte == lf
            || byte == cr
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
