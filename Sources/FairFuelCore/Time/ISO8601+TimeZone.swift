/// Date-times as a family types them: a time without a zone is their car's local time.
extension ISO8601 {
    /// Parses as `parse(_:)` does, but a date-time without `Z` or an offset is the wall clock of
    /// `zone` (a date alone: its local midnight). An offset or `Z` in the text wins.
    public static func parse(_ text: String, localIn zone: TimeZoneRules) throws(ParseError) -> UTCTimestamp {
        let parts = try wallClock(text)
        if let offset = parts.offsetMinutes {
            return UTCTimestamp(millisecondsSinceEpoch: parts.wallMs - Int64(offset) * 60_000)
        }
        return UTCTimestamp(millisecondsSinceEpoch: zone.utcMs(localMs: parts.wallMs))
    }

    /// The wall-clock time `text` names (milliseconds since 1970-01-01T00:00 of that clock) when it
    /// gives no offset and no `Z`; nil when it gives one (it then names an instant, whatever the zone).
    public static func wallClockWithoutOffset(_ text: String) throws(ParseError) -> Int64? {
        let parts = try wallClock(text)
        return parts.offsetMinutes == nil ? parts.wallMs : nil
    }

    /// `rangeBound(_:endOfDay:)` in `zone`: a date alone is its local midnight, or with
    /// `endOfDay` the next local midnight (a day of 23 or 25 hours when the clocks change).
    public static func rangeBound(_ text: String, endOfDay: Bool, localIn zone: TimeZoneRules) throws(ParseError) -> Int64 {
        let parts = try wallClock(text)
        // A zone in the text names an instant (a date alone never has one).
        if let offset = parts.offsetMinutes { return parts.wallMs - Int64(offset) * 60_000 }
        let dateOnly = text.utf8.count == 10
        return zone.utcMs(localMs: dateOnly && endOfDay ? parts.wallMs + 86_400_000 : parts.wallMs)
    }

    /// `2026-11-20 08:00` on `zone`'s wall clock.
    public static func dateMinute(utcMs: Int64, in zone: TimeZoneRules) -> String {
        dateMinute(utcMs: zone.localMs(utcMs: utcMs))
    }
}

extension CalendarMonth {
    /// The month `zone`'s calendar shows at `utcMs`.
    public init(utcMs: Int64, in zone: TimeZoneRules) {
        self.init(utcMs: zone.localMs(utcMs: utcMs))
    }

    /// Whether `utcMs` falls in this month of `zone`'s calendar.
    public func contains(utcMs: Int64, in zone: TimeZoneRules) -> Bool {
        contains(utcMs: zone.localMs(utcMs: utcMs))
    }

    /// Its first instant in `zone` (UTC ms).
    public func startUTCMs(in zone: TimeZoneRules) -> Int64 { zone.utcMs(localMs: startUTCMs) }
}
