import FairFuelCore
import Testing

/// The writers of `ISO8601` (the parser is tested through `CalendarMonthTests` and the CLI).
@Suite struct ISO8601Tests {
    @Test(arguments: [
        (Int64(0), "19700101T000000Z"), (1_795_250_100_000, "20261121T083500Z"), (951_782_400_000, "20000229T000000Z"),
        (-1, "19691231T235959Z"), (4_102_444_799_000, "20991231T235959Z"),
    ])
    func basicStampsAreCompactUTC(ms: Int64, text: String) {
        #expect(ISO8601.basicDateTime(utcMs: ms) == text)
    }

    @Test func dateMinuteIsTheExtendedFormatCutToTheMinute() {
        #expect(ISO8601.dateMinute(utcMs: 1_795_161_600_000) == "2026-11-20 08:00")
        #expect(ISO8601.dateMinute(utcMs: 1_795_161_659_999) == "2026-11-20 08:00")
        #expect(ISO8601.dateMinute(utcMs: -1) == "1969-12-31 23:59")
        for ms in stride(from: Int64(0), to: 4_102_444_800_000, by: 7_919_999_917) {
            let full = ISO8601.dateTime(UTCTimestamp(millisecondsSinceEpoch: ms))
            #expect(ISO8601.dateMinute(utcMs: ms) == String(full.prefix(10)) + " " + String(full.dropFirst(11).prefix(5)))
        }
    }

    @Test func dateSecondWeekdayAndMonthDayAgreeWithTheFullText() {
        // 2026-11-20 was a Friday; 1970-01-01 a Thursday; 2000-02-29 a Tuesday.
        #expect(ISO8601.weekdaySecond(utcMs: 1_795_161_601_000) == "Fri 08:00:01")
        #expect(ISO8601.weekdaySecond(utcMs: 0) == "Thu 00:00:00")
        #expect(ISO8601.weekdaySecond(utcMs: 951_782_400_000) == "Tue 00:00:00")
        #expect(ISO8601.weekdaySecond(utcMs: -1) == "Wed 23:59:59")
        #expect(ISO8601.dateSecond(utcMs: 1_795_161_601_999) == "2026-11-20 08:00:01")
        for ms in stride(from: Int64(-86_400_000), to: 4_102_444_800_000, by: 6_911_999_917) {
            let instant = UTCTimestamp(millisecondsSinceEpoch: ms)
            let full = ISO8601.dateTime(instant)
            #expect(ISO8601.dateSecond(utcMs: ms) == String(full.prefix(10)) + " " + String(full.dropFirst(11).prefix(8)))
            #expect(ISO8601.monthDay(instant.date) == String(full.dropFirst(5).prefix(5)))
            #expect(ISO8601.weekdaySecond(utcMs: ms).hasSuffix(" " + String(full.dropFirst(11).prefix(8))))
        }
        // Seven days in a row have seven different names, a week later the same again.
        let names = (0..<7).map { UTCDate(daysSinceEpoch: 20_000 + $0).weekdayAbbreviation }
        #expect(Set(names).count == 7)
        #expect(UTCDate(daysSinceEpoch: 20_007).weekdayAbbreviation == names[0])
    }
}
