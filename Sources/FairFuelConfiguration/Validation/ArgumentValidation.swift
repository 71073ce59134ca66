import FairFuelCore
import FairFuelParsers

/// Why an argument was refused: which argument, and the rule it broke (the allowed range or form).
public struct ArgumentValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The argument as the user wrote it: `--liters`, `NAME`.
    public var argument: String
    /// What is wrong and what is allowed, without the argument's name.
    public var problem: String

    public init(argument: String, problem: String) {
        self.argument = argument
        self.problem = problem
    }

    public var description: String { "\(argument): \(problem)" }
}

/// The one place where numbers, names, free text and dates typed by a person (CLI arguments,
/// control-socket requests, imported bundles) are checked before anything is created or changed.
///
/// Numbers are plain decimals only (no hex, no exponent, no inf or nan), within physical limits;
/// names are 1 to 64 characters (grapheme clusters) without control, bidirectional-override or
/// zero-width characters. Commands adopt it by calling these functions (the CLI wraps them as
/// ArgumentParser transforms) before they open the store.
public enum ArgumentValidation {
    /// An allowed range of a decimal quantity, with its unit for messages.
    public struct Limits: Sendable {
        public var range: ClosedRange<Double>
        public var unit: String
        public init(_ range: ClosedRange<Double>, _ unit: String) {
            self.range = range
            self.unit = unit
        }
    }

    /// Litres at the pump: a jerrycan's splash to a lorry's tank.
    public static let liters = Limits(0.1...500, "L")
    /// The same in US gallons.
    public static let gallons = Limits(0.03...132, "US gal")
    /// A bill, in the currency's major unit.
    public static let cost = Limits(0...100_000, "")
    public static let odometerKilometers = Limits(0...2_000_000, "km")
    public static let odometerMiles = Limits(0...1_250_000, "mi")
    /// A simulation's length: up to a year of simulated seconds.
    public static let simulatedSeconds = Limits(0.001...31_622_400, "s")
    /// A simulation's speed-up.
    public static let simulationSpeed = Limits(0.001...10_000_000, "x")
    /// Dates between these years (inclusive) are accepted.
    public static let years = 2000...2100
    /// Most characters (grapheme clusters) in a name.
    public static let maximumNameCharacters = 64
    /// Most characters in a free text (a station, a note).
    public static let maximumTextCharacters = 200
    /// Most digits a decimal may have (more is a paste accident, not a measurement).
    static let maximumDecimalCharacters = 24

    /// A plain decimal within `limits`: `41.3`, `0.5`, `.5`, `12`; a sign is read so that a
    /// negative value gets a range message rather than a format one.
    public static func decimal(_ text: String, argument: String, limits: Limits) throws(ArgumentValidationError) -> Double {
        let shown = quoted(text)
        guard isPlainDecimal(text), let value = Double(text), value.isFinite else {
            throw ArgumentValidationError(
                argument: argument,
                problem: "\(shown) is not a plain decimal number (digits and at most one '.', like 41.3; no hex, exponent, inf or nan)")
        }
        guard limits.range.contains(value) else {
            throw ArgumentValidationError(argument: argument, problem: "\(shown) is out of range: \(range(limits))")
        }
        return value
    }

    /// The cost text checked as a decimal within `cost` (money is then parsed exactly by `MoneyText`).
    public static func money(_ text: String, argument: String, minorDigits: Int) throws(ArgumentValidationError) -> MinorUnits {
        _ = try decimal(text, argument: argument, limits: cost)
        do {
            return try MoneyText.parse(text, minorDigits: minorDigits)
        } catch {
            throw ArgumentValidationError(argument: argument, problem: "\(quoted(text)): \(error)")
        }
    }

    /// An ISO 8601 date or date-time between `years`, as UTC milliseconds.
    public static func date(_ text: String, argument: String) throws(ArgumentValidationError) -> Int64 {
        let stamp: UTCTimestamp
        do { stamp = try ISO8601.parse(text) } catch { throw ArgumentValidationError(argument: argument, problem: "\(error)") }
        return try inYears(stamp.millisecondsSinceEpoch, text: text, argument: argument)
    }

    /// `milliseconds` (a parsed date) when it falls between `years`.
    public static func inYears(_ milliseconds: Int64, text: String, argument: String) throws(ArgumentValidationError) -> Int64 {
        let first = UTCDate(year: years.lowerBound, month: 1, day: 1)!.daysSinceEpoch * 86_400_000
        let last = UTCDate(year: years.upperBound + 1, month: 1, day: 1)!.daysSinceEpoch * 86_400_000
        guard milliseconds >= first && milliseconds < last else {
            throw ArgumentValidationError(argument: argument, problem: "\(quoted(text)) is out of range: years \(years.lowerBound) to \(years.upperBound)")
        }
        return milliseconds
    }

    /// A driver's or a car's name: 1 to 64 characters, no control, format (bidi, zero-width) or
    /// line-separator characters, no space at either end.
    public static func name(_ text: String, argument: String) throws(ArgumentValidationError) -> String {
        guard !text.isEmpty else { throw ArgumentValidationError(argument: argument, problem: "must not be empty (1 to \(maximumNameCharacters) characters)") }
        try checkCharacters(text, argument: argument, maximum: maximumNameCharacters)
        if text.first!.isWhitespace || text.last!.isWhitespace {
            throw ArgumentValidationError(argument: argument, problem: "\(quoted(text)) must not start or end with a space")
        }
        return text
    }

    /// A free text (station, note, contact): at most 200 characters, the same characters as a name.
    public static func text(_ text: String, argument: String) throws(ArgumentValidationError) -> String {
        try checkCharacters(text, argument: argument, maximum: maximumTextCharacters)
        return text
    }

    static func checkCharacters(_ text: String, argument: String, maximum: Int) throws(ArgumentValidationError) {
        // Counting stops past the limit: a 100 000-character paste costs no more than 65.
        var characters = 0
        for _ in text {
            characters += 1
            if characters > maximum { break }
        }
        guard characters <= maximum else {
            throw ArgumentValidationError(argument: argument, problem: "is too long: at most \(maximum) characters")
        }
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.properties.generalCategory {
            case .control:
                throw ArgumentValidationError(argument: argument, problem: "contains a control character (\(code(scalar))); only printable text is allowed")
            case .format where scalar.value == 0x200D && index > 0 && index < scalars.count - 1:
                continue  // a zero-width joiner inside an emoji sequence
            case .format:
                throw ArgumentValidationError(
                    argument: argument, problem: "contains an invisible formatting character (\(code(scalar)): bidirectional or zero-width); only printable text is allowed")
            case .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                throw ArgumentValidationError(argument: argument, problem: "contains a character that is not printable text (\(code(scalar)))")
            default:
                continue
            }
        }
    }

    /// `[+-]digits[.digits]` or `[+-].digits`, nothing else.
    static func isPlainDecimal(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumDecimalCharacters else { return false }
        var index = 0
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") { index = 1 }
        var digits = 0
        var dots = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            default: return false
            }
            index += 1
        }
        return digits > 0 && dots <= 1
    }

    static func range(_ limits: Limits) -> String {
        let unit = limits.unit.isEmpty ? "" : " " + limits.unit
        return "\(plain(limits.range.lowerBound)) to \(plain(limits.range.upperBound))\(unit)"
    }

    /// 0.1, 500, 100000: no exponent, no trailing ".0".
    static func plain(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The value for a message: at most 24 characters, control and format characters shown as codes.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(24) {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: shown += "<\(code(scalar))>"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return "'" + shown + (text.unicodeScalars.count > 24 ? "...'" : "'")
    }
}
