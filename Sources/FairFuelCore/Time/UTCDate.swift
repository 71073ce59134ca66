/// A calendar day (proleptic Gregorian) in UTC.
public struct UTCDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    // Stored small: sentences that carry a date are copied by value on the hot path.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    /// Year of the proleptic Gregorian calendar (-2^31 ..< 2^31).
    public var year: Int { Int(storedYear) }
    /// 1...12.
    public var month: Int { Int(storedMonth) }
    /// 1...31, valid for the month.
    public var day: Int { Int(storedDay) }

    /// nil when the day does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard let storedYear = Int32(exactly: year), (1...12).contains(month), day >= 1,
            day <= UTCDate.daysIn(month: month, year: year)
        else { return nil }
        self.storedYear = storedYear
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// The day `days` days after 1970-01-01 (civil-from-days, Howard Hinnant's algorithm);
    /// `days` within ±784 billion (years that fit in Int32).
    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097  // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // [0, 365]
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // [0, 11], March first
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        storedDay = UInt8(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        storedMonth = UInt8(month)
        storedYear = Int32(clamping: yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Days since 1970-01-01 (days-from-civil); negative before.
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400  // [0, 399]
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1  // [0, 365]
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `Mon` to `Sun` (1970-01-01 was a Thursday).
    public var weekdayAbbreviation: String {
        let names = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        return names[Int(((daysSinceEpoch % 7) + 7) % 7)]
    }

    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (a: UTCDate, b: UTCDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `yyyy-mm-dd`.
    public var description: String {
        var text = ""
        ISO8601.appendDate(self, to: &text)
        return text
    }
}
