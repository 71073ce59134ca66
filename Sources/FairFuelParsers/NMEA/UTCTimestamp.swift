/// An instant in UTC as milliseconds since 1970-01-01T00:00:00Z, leap seconds not counted.
public struct UTCTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// The instant `time` on `date`; a leap second `23:59:60.xxx` lands on the next day's `00:00:00.xxx`.
    public init(date: UTCDate, time: UTCTimeOfDay) {
        millisecondsSinceEpoch = date.daysSinceEpoch * 86_400_000 + Int64(time.milliseconds)
    }

    public var date: UTCDate {
        UTCDate(daysSinceEpoch: floorDivide(millisecondsSinceEpoch, 86_400_000))
    }

    public var timeOfDay: UTCTimeOfDay {
        let days = floorDivide(millisecondsSinceEpoch, 86_400_000)
        return UTCTimeOfDay(milliseconds: Int32(millisecondsSinceEpoch - days * 86_400_000))
    }

    public static func < (a: UTCTimestamp, b: UTCTimestamp) -> Bool {
        a.millisecondsSinceEpoch < b.millisecondsSinceEpoch
    }

    /// ISO 8601 with milliseconds and `Z`: `2026-11-20T08:00:01.000Z`.
    public var iso8601: String {
        var text = ""
        text.reserveCapacity(24)
        appendISO8601(to: &text)
        return text
    }

    /// Appends `iso8601` to `text`.
    public func appendISO8601(to text: inout String) {
        let date = self.date
        let time = timeOfDay
        UTCTimestamp.appendDigits(date.year, width: 4, to: &text)
        text += "-"
        UTCTimestamp.appendDigits(date.month, width: 2, to: &text)
        text += "-"
        UTCTimestamp.appendDigits(date.day, width: 2, to: &text)
        text += "T"
        UTCTimestamp.appendDigits(time.hour, width: 2, to: &text)
        text += ":"
        UTCTimestamp.appendDigits(time.minute, width: 2, to: &text)
        text += ":"
        UTCTimestamp.appendDigits(time.second, width: 2, to: &text)
        text += "."
        UTCTimestamp.appendDigits(time.millisecond, width: 3, to: &text)
        text += "Z"
    }

    public var description: String { iso8601 }

    /// Appends `value` in decimal, zero-padded to `width` digits (a minus sign before for negatives).
    static func appendDigits(_ value: Int, width: Int, to text: inout String) {
        if value < 0 { text += "-" }
        let digits = String(value.magnitude)
        if digits.utf8.count < width {
            text += String(repeating: "0", count: width - digits.utf8.count)
        }
        text += digits
    }

    private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
