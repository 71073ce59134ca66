/// A time of day in UTC, in milliseconds since midnight, as NMEA sentences carry it.
///
/// `23:59:60` (a leap second) is kept as 86 400 000 ms and up.
public struct UTCTimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let millisecondsPerDay: Int32 = 86_400_000

    /// 0 ..< 86 401 000.
    public let milliseconds: Int32

    public init(milliseconds: Int32) {
        precondition(milliseconds >= 0 && milliseconds < UTCTimeOfDay.millisecondsPerDay + 1000)
        self.milliseconds = milliseconds
    }

    /// nil when out of range (hour 0...23, minute 0...59, second 0...60, millisecond 0...999).
    public init?(hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (0...999).contains(millisecond)
        else { return nil }
        self.init(
            milliseconds: Int32(((hour * 60 + minute) * 60 + second) * 1000 + millisecond))
    }

    public var hour: Int { Int(min(milliseconds, UTCTimeOfDay.millisecondsPerDay - 1) / 3_600_000) }
    public var minute: Int { Int(min(milliseconds, UTCTimeOfDay.millisecondsPerDay - 1) / 60_000 % 60) }
    /// 0...60.
    public var second: Int { Int((milliseconds - Int32(hour) * 3_600_000 - Int32(minute) * 60_000) / 1000) }
    public var millisecond: Int { Int(milliseconds % 1000) }

    public static func < (a: UTCTimeOfDay, b: UTCTimeOfDay) -> Bool { a.milliseconds < b.milliseconds }

    /// `hh:mm:ss.sss`.
    public var description: String {
        var text = ""
        ISO8601.appendTime(self, to: &text)
        return text
    }
}
