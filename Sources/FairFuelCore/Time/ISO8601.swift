/// ISO 8601 without Foundation: the one parser of date-times as people type them, and the one
/// writer of every date and time FairFuel prints or stores.
public enum ISO8601 {
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self {
            case let .malformed(text):
                "'\(text)' is not an ISO 8601 date-time (e.g. 2026-11-20T08:30, 2026-11-20T08:30:00Z or 2026-11-20T09:30+01:00)"
            }
        }
    }

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]`; without a zone the time is UTC,
    /// a date alone is its midnight.
    public static func parse(_ text: String) throws(ParseError) -> UTCTimestamp {
        try parse(text, localIn: .utc)
    }

    /// The wall-clock time written (milliseconds since 1970-01-01T00:00 of that clock) and the
    /// offset the text gives, nil when it gives none.
    static func wallClock(_ text: String) throws(ParseError) -> (wallMs: Int64, offsetMinutes: Int?) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<digits {
                let byte = bytes[index + offset]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            let date = UTCDate(year: year, month: month, day: day)
        else { throw .malformed(text) }
        var hour = 0, minute = 0, second = 0, millisecond = 0
        if index < bytes.count && (bytes[index] == 0x54 || bytes[index] == 0x20) {  // 'T' or ' '
            index += 1
            guard let h = number(2), expect(0x3A), let m = number(2) else { throw .malformed(text) }
            hour = h
            minute = m
            if expect(0x3A) {
                guard let s = number(2) else { throw .malformed(text) }
                second = s
                if expect(0x2E) {
                    var scale = 100
                    var digits = 0
                    while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                        millisecond += Int(bytes[index] - 0x30) * scale
                        scale /= 10
                        index += 1
                        digits += 1
                    }
                    guard digits > 0 else { throw .malformed(text) }
                }
            }
        }
        guard let time = UTCTimeOfDay(hour: hour, minute: minute, second: second, millisecond: millisecond) else {
            throw .malformed(text)
        }
        var offsetMinutes: Int?
        if index < bytes.count {
            if bytes[index] == 0x5A || bytes[index] == 0x7A {  // Z
                index += 1
                offsetMinutes = 0
            } else if bytes[index] == 0x2B || bytes[index] == 0x2D {
                let sign = bytes[index] == 0x2B ? 1 : -1
                index += 1
                guard let h = number(2), h <= 14 else { throw .malformed(text) }
                _ = expect(0x3A)
                guard let m = number(2), m < 60 else { throw .malformed(text) }
                offsetMinutes = sign * (h * 60 + m)
            }
        }
        guard index == bytes.count else { throw .malformed(text) }
        return (UTCTimestamp(date: date, time: time).millisecondsSinceEpoch, offsetMinutes)
    }

    // MARK: - Writing

    /// Extended format with milliseconds and `Z`: `2026-11-20T08:00:01.000Z`.
    public static func dateTime(_ instant: UTCTimestamp) -> String {
        var text = ""
        text.reserveCapacity(24)
        appendDateTime(instant, to: &text)
        return text
    }

    /// Appends `dateTime(instant)` to `text`.
    public static func appendDateTime(_ instant: UTCTimestamp, to text: inout String) {
        appendDate(instant.date, to: &text)
        text += "T"
        appendTime(instant.timeOfDay, to: &text)
        text += "Z"
    }

    /// `2026-11-20`.
    public static func appendDate(_ date: UTCDate, to text: inout String) {
        appendDigits(date.year, width: 4, to: &text)
        text += "-"
        appendDigits(date.month, width: 2, to: &text)
        text += "-"
        appendDigits(date.day, width: 2, to: &text)
    }

    /// `08:00:01.000`.
    public static func appendTime(_ time: UTCTimeOfDay, to text: inout String) {
        appendTimeToSecond(time, to: &text)
        text += "."
        appendDigits(time.millisecond, width: 3, to: &text)
    }

    /// Basic format to the second, for file names: `20261121T081500Z` (milliseconds dropped).
    public static func basicDateTime(utcMs: Int64) -> String {
        let instant = UTCTimestamp(millisecondsSinceEpoch: utcMs)
        let date = instant.date
        let time = instant.timeOfDay
        var text = ""
        text.reserveCapacity(16)
        appendDigits(date.year, width: 4, to: &text)
        appendDigits(date.month, width: 2, to: &text)
        appendDigits(date.day, width: 2, to: &text)
        text += "T"
        appendDigits(time.hour, width: 2, to: &text)
        appendDigits(time.minute, width: 2, to: &text)
        appendDigits(time.second, width: 2, to: &text)
        text += "Z"
        return text
    }

    /// `11-20`: a chart's axis label, the year understood.
    public static func monthDay(_ date: UTCDate) -> String {
        var text = ""
        appendDigits(date.month, width: 2, to: &text)
        text += "-"
        appendDigits(date.day, width: 2, to: &text)
        return text
    }

    /// The date and the time to the second, for logs and simulation timelines: `2026-11-20 08:00:01`.
    public static func dateSecond(utcMs: Int64) -> String {
        let instant = UTCTimestamp(millisecondsSinceEpoch: utcMs)
        var text = ""
        text.reserveCapacity(19)
        appendDate(instant.date, to: &text)
        text += " "
        appendTimeToSecond(instant.timeOfDay, to: &text)
        return text
    }

    /// The weekday and the time to the second, for progress lines: `Mon 07:41:06`.
    public static func weekdaySecond(utcMs: Int64) -> String {
        let instant = UTCTimestamp(millisecondsSinceEpoch: utcMs)
        var text = instant.date.weekdayAbbreviation
        text += " "
        appendTimeToSecond(instant.timeOfDay, to: &text)
        return text
    }

    /// `08:00:01`.
    public static func appendTimeToSecond(_ time: UTCTimeOfDay, to text: inout String) {
        appendDigits(time.hour, width: 2, to: &text)
        text += ":"
        appendDigits(time.minute, width: 2, to: &text)
        text += ":"
        appendDigits(time.second, width: 2, to: &text)
    }

    /// The date and the time to the minute, as tables show them: `2026-11-20 08:00` (UTC).
    public static func dateMinute(utcMs: Int64) -> String {
        let instant = UTCTimestamp(millisecondsSinceEpoch: utcMs)
        let time = instant.timeOfDay
        var text = ""
        text.reserveCapacity(16)
        appendDate(instant.date, to: &text)
        text += " "
        appendDigits(time.hour, width: 2, to: &text)
        text += ":"
        appendDigits(time.minute, width: 2, to: &text)
        return text
    }

    /// Appends `value` in decimal, zero-padded to `width` digits (a minus sign before for negatives).
    static func appendDigits(_ value: Int, width: Int, to text: inout String) {
        if value < 0 { text += "-" }
        let digits = String(value.magnitude)
        if digits.utf8.count < width {
            text += String(repeating: "0", count: width - digits.utf8.count)
        }
        text += digits
    }
}
