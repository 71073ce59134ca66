/// Amounts of money as text, in integer minor units; never floating point.
public enum MoneyText {
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case tooManyDecimals(String, allowed: Int)
        case negative(String)
        public var description: String {
            switch self {
            case let .malformed(text): "'\(text)' is not an amount (e.g. 64.90)"
            case let .tooManyDecimals(text, allowed): "'\(text)' has more than \(allowed) decimals"
            case let .negative(text): "'\(text)' is negative"
            }
        }
    }

    /// Parses `64.9`, `64.90` or `64,90` into minor units with `minorDigits` decimals.
    public static func parse(_ text: String, minorDigits: Int = 2) throws(ParseError) -> MinorUnits {
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var seenSeparator = false
        var seenDigit = false
        for (offset, character) in text.enumerated() {
            switch character {
            case "-" where offset == 0: throw .negative(text)
            case "0"..."9":
                let digit = Int64(character.asciiValue! - 48)
                seenDigit = true
                if seenSeparator {
                    fractionDigits += 1
                    guard fractionDigits <= minorDigits else { throw .tooManyDecimals(text, allowed: minorDigits) }
                    fraction = fraction * 10 + digit
                } else {
                    guard whole < 100_000_000_000 else { throw .malformed(text) }
                    whole = whole * 10 + digit
                }
            case ".", ",":
                guard !seenSeparator else { throw .malformed(text) }
                seenSeparator = true
            default:
                throw .malformed(text)
            }
        }
        guard seenDigit else { throw .malformed(text) }
        var scale: Int64 = 1
        for _ in 0..<minorDigits { scale *= 10 }
        while fractionDigits < minorDigits {
            fraction *= 10
            fractionDigits += 1
        }
        return MinorUnits(whole * scale + fraction)
    }

    /// `6490` with 2 digits -> `64.90`.
    public static func format(_ amount: MinorUnits, minorDigits: Int = 2) -> String {
        guard minorDigits > 0 else { return String(amount.value) }
        var scale: Int64 = 1
        for _ in 0..<minorDigits { scale *= 10 }
        let sign = amount.value < 0 ? "-" : ""
        let magnitude = amount.value.magnitude
        var fraction = String(magnitude % UInt64(scale))
        fraction = String(repeating: "0", count: minorDigits - fraction.count) + fraction
        return "\(sign)\(magnitude / UInt64(scale)).\(fraction)"
    }
}
