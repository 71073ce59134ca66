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
    public var iso8601: String { ISO8601.dateTime(self) }

    /// Appends `iso8601` to `text`.
    public func appendISO8601(to text: inout String) { ISO8601.appendDateTime(self, to: &text) }

    public var description: String { iso8601 }

    private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
