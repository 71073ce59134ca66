/// A trip as the family names it: a session by its number, untracked driving by `u` and its number.
public enum TripReference: Sendable, Hashable, CustomStringConvertible {
    case session(Int64)
    case untracked(Int64)

    /// `42` or `u7` (any case); nil for anything else.
    public init?(_ text: String) {
        var digits = Substring(text)
        let untracked = digits.first == "u" || digits.first == "U"
        if untracked { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int64(digits), number > 0 else {
            return nil
        }
        self = untracked ? .untracked(number) : .session(number)
    }

    public var description: String {
        switch self {
        case let .session(id): String(id)
        case let .untracked(id): "u\(id)"
        }
    }
}
