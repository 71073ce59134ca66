/// A POSIX TZ rule ("CET-1CEST,M3.5.0,M10.5.0/3"): a standard time and, optionally, a daylight saving
/// time with the yearly days and times it starts and ends.
///
/// Accepts RFC 8536's extensions (section 3.3.1): transition times with hours -167...167, which also
/// express all-year daylight saving time ("EST5EDT4,0/0,J365/25"). POSIX offsets are hours west of UTC;
/// they are stored east, as TZif does. A daylight saving name without a rule ("EST5EDT") is refused
/// rather than guessed (tzcode would assume the US rules of 2007).
struct TimeZonePosixRule: Sendable, Equatable {
    var standard: TimeZoneLocalTimeType
    var daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        var type: TimeZoneLocalTimeType
        /// Into daylight saving time, in standard local time.
        var start: Transition
        /// Back to standard time, in daylight saving local time.
        var end: Transition
    }

    struct Transition: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: 1...365, February 29 never counted.
            case julianSkippingLeapDay(Int)
            /// `n`: 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5 the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        var day: Day
        /// Local time of day the change happens at, -167...167 hours (default 02:00).
        var secondsAfterMidnight: Int

        /// Days since 1970-01-01 of this transition's day in `year`.
        func daysSinceEpoch(year: Int) -> Int64 {
            let januaryFirst = TimeZonePosixRule.daysSinceEpoch(year: year, month: 1, day: 1)
            switch day {
            case let .julianSkippingLeapDay(n):
                return januaryFirst + Int64(n - 1) + (UTCDate.isLeap(year) && n >= 60 ? 1 : 0)
            case let .zeroBased(n):
                return januaryFirst + Int64(n)
            case let .monthWeekDay(month, week, weekday):
                let first = TimeZonePosixRule.daysSinceEpoch(year: year, month: month, day: 1)
                let firstWeekday = Int(((first + 4) % 7 + 7) % 7)  // 1970-01-01 was a Thursday
                var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
                while dayOfMonth > UTCDate.daysIn(month: month, year: year) { dayOfMonth -= 7 }
                return first + Int64(dayOfMonth - 1)
            }
        }
    }

    /// The local time type in force at `utcSeconds`.
    func localType(atUTCSeconds utcSeconds: Int64) -> TimeZoneLocalTimeType {
        guard let daylight else { return standard }
        let year = Self.year(ofUTCSeconds: utcSeconds, offsetSeconds: standard.offsetSeconds)
        var inForce: (instant: Int64, isDaylight: Bool)?
        // Rule times reach a week either side of a day, so the year before and after can hold the latest change.
        for change in changes(years: (year - 1)...(year + 1), daylight: daylight) where change.instant <= utcSeconds {
            inForce = (change.instant, change.isDaylight)
        }
        let isDaylight = inForce?.isDaylight ?? false
        return isDaylight ? daylight.type : standard
    }

    /// The changes in `(after, through]`, in order; bounded to 2 000 years of them.
    func changes(after: Int64, through: Int64) -> [(instant: Int64, type: TimeZoneLocalTimeType)] {
        guard let daylight, after < through else { return [] }
        let first = Self.year(ofUTCSeconds: after, offsetSeconds: standard.offsetSeconds) - 1
        let last = min(Self.year(ofUTCSeconds: through, offsetSeconds: standard.offsetSeconds) + 1, first + 2000)
        return changes(years: first...last, daylight: daylight)
            .filter { $0.instant > after && $0.instant <= through }
            .map { ($0.instant, $0.isDaylight ? daylight.type : standard) }
    }

    /// Both changes of each year, sorted; at one instant, the earlier year's first (so an end of daylight
    /// saving time that meets the next year's start leaves daylight saving time in force).
    private func changes(years: ClosedRange<Int>, daylight: Daylight) -> [(instant: Int64, isDaylight: Bool)] {
        var changes: [(instant: Int64, year: Int, isDaylight: Bool)] = []
        changes.reserveCapacity(years.count * 2)
        for year in years {
            let start = daylight.start.daysSinceEpoch(year: year) * 86_400 + Int64(daylight.start.secondsAfterMidnight)
                - Int64(standard.offsetSeconds)
            let end = daylight.end.daysSinceEpoch(year: year) * 86_400 + Int64(daylight.end.secondsAfterMidnight)
                - Int64(daylight.type.offsetSeconds)
            changes.append((start, year, true))
            changes.append((end, year, false))
        }
        changes.sort { ($0.instant, $0.year, $0.isDaylight ? 0 : 1) < ($1.instant, $1.year, $1.isDaylight ? 0 : 1) }
        return changes.map { ($0.instant, $0.isDaylight) }
    }

    private static func year(ofUTCSeconds seconds: Int64, offsetSeconds: Int) -> Int {
        let days = timeZoneFloorDivide(timeZoneSaturatingAdd(seconds, Int64(offsetSeconds)), 86_400)
        // Instants from milliseconds stay within ±292 million years; clamp anything beyond.
        return UTCDate(daysSinceEpoch: max(min(days, 700_000_000_000), -700_000_000_000)).year
    }

    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        UTCDate(year: year, month: month, day: day)?.daysSinceEpoch ?? 0
    }
}

extension TimeZonePosixRule {
    /// Parses `text`; the error names the rule and what is wrong.
    init(parsing text: String) throws(TimeZoneError) {
        var parser = Parser(bytes: Array(text.utf8), text: text)
        let standardName = try parser.name(role: "standard time")
        let standardOffset = try parser.offset(role: "standard time")
        standard = TimeZoneLocalTimeType(offsetSeconds: standardOffset, isDaylightSavingTime: false, abbreviation: standardName)
        guard !parser.atEnd else {
            daylight = nil
            return
        }
        let daylightName = try parser.name(role: "daylight saving time")
        var daylightOffset = standardOffset + 3600
        if !parser.atEnd && parser.peek != UInt8(ascii: ",") {
            daylightOffset = try parser.offset(role: "daylight saving time")
        }
        guard !parser.atEnd else {
            throw parser.error("names a daylight saving time (\(daylightName)) but no rule for when it starts and ends, e.g. ',M3.5.0,M10.5.0/3'")
        }
        try parser.expect(",", what: "',' before the daylight saving start rule")
        let start = try parser.transition(role: "start")
        try parser.expect(",", what: "',' before the daylight saving end rule")
        let end = try parser.transition(role: "end")
        guard parser.atEnd else { throw parser.error("unexpected text after the end rule") }
        daylight = Daylight(
            type: TimeZoneLocalTimeType(offsetSeconds: daylightOffset, isDaylightSavingTime: true, abbreviation: daylightName),
            start: start, end: end)
    }

    private struct Parser {
        let bytes: [UInt8]
        let text: String
        var index = 0

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        func error(_ message: String) -> TimeZoneError {
            TimeZoneError("the TZ rule '\(text)' \(message)")
        }

        private func errorHere(_ expected: String) -> TimeZoneError {
            atEnd ? error("ends where \(expected) was expected")
                : error("has '\(String(decoding: bytes[index...].prefix(12), as: UTF8.self))' at character \(index + 1) where \(expected) was expected")
        }

        mutating func expect(_ character: Unicode.Scalar, what: String) throws(TimeZoneError) {
            guard peek == UInt8(ascii: character) else { throw errorHere(what) }
            index += 1
        }

        /// `CET` (3 or more letters) or `<+0530>` (3 or more of letters, digits, + and -).
        mutating func name(role: String) throws(TimeZoneError) -> String {
            let start = index
            if peek == UInt8(ascii: "<") {
                index += 1
                while let byte = peek, Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                    index += 1
                }
                let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
                guard peek == UInt8(ascii: ">"), name.utf8.count >= 3 else {
                    index = start
                    throw errorHere("a \(role) name in <>, of 3 or more letters, digits, + or -")
                }
                index += 1
                return name
            }
            while let byte = peek, Self.isLetter(byte) { index += 1 }
            guard index - start >= 3 else {
                index = start
                throw errorHere("a \(role) name of 3 or more letters (or one in <>)")
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A POSIX offset `[+-]hh[:mm[:ss]]` (hours 0...24, positive west), returned as seconds east.
        mutating func offset(role: String) throws(TimeZoneError) -> Int {
            -(try signedDuration(maximumHours: 24, what: "the \(role) offset ([+-]hh[:mm[:ss]], hours west of UTC)"))
        }

        /// `Jn`, `n` or `Mm.w.d`, then an optional `/[+-]hhh[:mm[:ss]]` (hours -167...167).
        mutating func transition(role: String) throws(TimeZoneError) -> Transition {
            let day: Transition.Day
            if peek == UInt8(ascii: "J") {
                index += 1
                day = .julianSkippingLeapDay(try number(in: 1...365, what: "a day 1...365 after J in the \(role) rule"))
            } else if peek == UInt8(ascii: "M") {
                index += 1
                let month = try number(in: 1...12, what: "a month 1...12 after M in the \(role) rule")
                try expect(".", what: "'.' after the month in the \(role) rule")
                let week = try number(in: 1...5, what: "a week 1...5 in the \(role) rule")
                try expect(".", what: "'.' after the week in the \(role) rule")
                let weekday = try number(in: 0...6, what: "a weekday 0...6 (0 is Sunday) in the \(role) rule")
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                day = .zeroBased(try number(in: 0...365, what: "a day (Jn, n or Mm.w.d) for the \(role) rule"))
            }
            var seconds = 7200
            if peek == UInt8(ascii: "/") {
                index += 1
                seconds = try signedDuration(maximumHours: 167, what: "a time [+-]hh[:mm[:ss]] (hours -167...167) after '/' in the \(role) rule")
            }
            return Transition(day: day, secondsAfterMidnight: seconds)
        }

        private mutating func signedDuration(maximumHours: Int, what: String) throws(TimeZoneError) -> Int {
            var sign = 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
                sign = peek == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            var seconds = try number(in: 0...maximumHours, what: what) * 3600
            if peek == UInt8(ascii: ":") {
                index += 1
                seconds += try number(in: 0...59, what: what) * 60
                if peek == UInt8(ascii: ":") {
                    index += 1
                    seconds += try number(in: 0...59, what: what)
                }
            }
            return sign * seconds
        }

        /// Up to 3 decimal digits within `range`.
        private mutating func number(in range: ClosedRange<Int>, what: String) throws(TimeZoneError) -> Int {
            let start = index
            var value = 0
            while let byte = peek, Self.isDigit(byte), index - start < 3 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            guard index > start, range.contains(value), !(peek.map(Self.isDigit) ?? false) else {
                index = start
                throw errorHere(what)
            }
            return value
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    }
}
