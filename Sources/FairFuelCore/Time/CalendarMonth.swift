/// A calendar month in UTC, `YYYY-MM`: the unit of summaries, reports and `split --by month`.
public struct CalendarMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self {
            case let .malformed(text): "'\(text)' is not a month (YYYY-MM, e.g. 2026-11)"
            }
        }
    }

    public init?(year: Int, month: Int) {
        guard (1970...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// The month holding `utcMs`.
    public init(utcMs: Int64) {
        let date = UTCTimestamp(millisecondsSinceEpoch: utcMs).date
        year = date.year
        month = date.month
    }

    public static func parse(_ text: String) throws(ParseError) -> CalendarMonth {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let value = CalendarMonth(year: year, month: month)
        else { throw .malformed(text) }
        return value
    }

    /// Its first instant (UTC ms).
    public var startUTCMs: Int64 {
        UTCTimestamp(date: UTCDate(year: year, month: month, day: 1)!, time: UTCTimeOfDay(milliseconds: 0)).millisecondsSinceEpoch
    }

    /// The first instant of the next month (UTC ms): the range is [start, end).
    public var endUTCMs: Int64 { next.startUTCMs }

    public var next: CalendarMonth {
        month == 12 ? CalendarMonth(year: year + 1, month: 1)! : CalendarMonth(year: year, month: month + 1)!
    }

    public func contains(utcMs: Int64) -> Bool { utcMs >= startUTCMs && utcMs < endUTCMs }

    public static func < (a: CalendarMonth, b: CalendarMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    /// `YYYY-MM`, ISO 8601's calendar month.
    public var description: String {
        var text = ""
        ISO8601.appendDigits(year, width: 4, to: &text)
        text += "-"
        ISO8601.appendDigits(month, width: 2, to: &text)
        return text
    }
}

extension ISO8601 {
    /// The bound of a `--since`/`--until` range: a date alone (`YYYY-MM-DD`) is its midnight,
    /// or with `endOfDay` the next midnight (so `--until 2026-11-30` includes that day);
    /// a full date-time is that instant.
    public static func rangeBound(_ text: String, endOfDay: Bool) throws(ParseError) -> Int64 {
        try rangeBound(text, endOfDay: endOfDay, localIn: .utc)
    }
}
