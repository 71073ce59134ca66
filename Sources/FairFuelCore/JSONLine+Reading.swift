extension JSONLine {
    /// Reads the JSON string literal at the front of `scalars` (its opening quote first), undoing
    /// every escape JSON allows: the inverse of `appendQuoted`, so what `JSONLine` writes reads back as it was.
    ///
    /// Nil when `scalars` does not start with a string, or the string is cut short or holds an
    /// escape JSON does not have; `scalars` is then left as it was. A lone UTF-16 surrogate in a
    /// `\u` escape reads as U+FFFD.
    public static func readQuoted(_ scalars: inout Substring.UnicodeScalarView) -> String? {
        var rest = scalars
        guard rest.popFirst() == "\"" else { return nil }
        var out = String.UnicodeScalarView()
        while let scalar = rest.popFirst() {
            switch scalar {
            case "\"":
                scalars = rest
                return String(out)
            case "\\":
                guard let escaped = rest.popFirst() else { return nil }
                switch escaped {
                case "\"", "\\", "/": out.append(escaped)
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "u":
                    guard let unit = readHex4(&rest) else { return nil }
                    out.append(combiningSurrogates(unit, &rest))
                default:
                    return nil
                }
            default:
                out.append(scalar)
            }
        }
        return nil
    }

    /// The scalar a `\u` escape's UTF-16 unit stands for, taking the low half of a surrogate pair
    /// from `rest` when it follows.
    private static func combiningSurrogates(_ unit: UInt16, _ rest: inout Substring.UnicodeScalarView) -> Unicode.Scalar {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        switch unit {
        case 0xD800...0xDBFF:
            var lookahead = rest
            guard lookahead.popFirst() == "\\", lookahead.popFirst() == "u", let low = readHex4(&lookahead),
                  (0xDC00...0xDFFF).contains(low) else { return replacement }
            rest = lookahead
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            return Unicode.Scalar(value) ?? replacement
        case 0xDC00...0xDFFF:
            return replacement
        default:
            return Unicode.Scalar(unit) ?? replacement
        }
    }

    private static func readHex4(_ rest: inout Substring.UnicodeScalarView) -> UInt16? {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let scalar = rest.popFirst(), scalar.isASCII, let digit = UInt16(String(scalar), radix: 16) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
