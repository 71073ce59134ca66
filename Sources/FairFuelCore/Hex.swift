/// Hexadecimal text for bytes, as used in captures and JSON output.
public enum Hex {
    /// The digit for a nibble (0...15), lower case.
    @inlinable @inline(__always)
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    /// Lower-case hex of `bytes`, no separators.
    public static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        append(bytes, to: &text)
        return text
    }

    /// Appends lower-case hex of `bytes` to `text`.
    @inlinable
    public static func append<C: Collection>(_ bytes: C, to text: inout String)
    where C.Element == UInt8 {
        for byte in bytes {
            text.unicodeScalars.append(Unicode.Scalar(digit(byte >> 4)))
            text.unicodeScalars.append(Unicode.Scalar(digit(byte & 0x0F)))
        }
    }

    /// Appends lower-case hex digits of `bytes` to ASCII text being built in `out`.
    @inlinable
    public static func appendASCII<C: Collection>(_ bytes: C, to out: inout [UInt8]) where C.Element == UInt8 {
        for byte in bytes {
            out.append(digit(byte >> 4))
            out.append(digit(byte & 0x0F))
        }
    }

    /// Value of one hex digit (either case), or nil.
    @inlinable @inline(__always)
    public static func nibble(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return ascii &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return ascii &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return ascii &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    /// Bytes of hex text (either case, no separators); nil if odd-length or not hex.
    public static func bytes<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        return decode(text.utf8, into: &out) ? out : nil
    }

    /// Appends the bytes of hex `ascii` to `out`; false (and `out` partly filled) on bad input.
    /// Inlinable: capture replay decodes every byte through here, and an unspecialized
    /// generic loop costs a witness call per digit.
    @inlinable
    public static func decode<C: Collection>(_ ascii: C, into out: inout [UInt8]) -> Bool
    where C.Element == UInt8 {
        guard ascii.count % 2 == 0 else { return false }
        var index = ascii.startIndex
        while index != ascii.endIndex {
            let next = ascii.index(after: index)
            guard let high = nibble(ascii[index]), let low = nibble(ascii[next]) else { return false }
            out.append(high << 4 | low)
            index = ascii.index(after: next)
        }
        return true
    }
}
