import FairFuelCore
import Testing

/// Dates as a family types them and months as their calendar has them, in a zone with daylight
/// saving time (Berlin's rule, so the test needs no zone files).
@Suite struct ISO8601TimeZoneTests {
    static let berlin = try! TimeZoneRules(name: "Europe/Berlin", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")

    static func utc(_ text: String) -> Int64 { try! ISO8601.parse(text).millisecondsSinceEpoch }

    @Test func aTimeWithoutAZoneIsTheWallClock() throws {
        #expect(try ISO8601.parse("2026-07-01T12:00", localIn: Self.berlin).millisecondsSinceEpoch == Self.utc("2026-07-01T10:00Z"))
        #expect(try ISO8601.parse("2026-01-15T12:00:30.5", localIn: Self.berlin).millisecondsSinceEpoch == Self.utc("2026-01-15T11:00:30.5Z"))
        #expect(try ISO8601.parse("2026-07-01", localIn: Self.berlin).millisecondsSinceEpoch == Self.utc("2026-06-30T22:00Z"))
        // An offset or Z in the text wins over the zone.
        #expect(try ISO8601.parse("2026-07-01T12:00Z", localIn: Self.berlin).millisecondsSinceEpoch == Self.utc("2026-07-01T12:00Z"))
        #expect(try ISO8601.parse("2026-07-01T12:00-05:00", localIn: Self.berlin).millisecondsSinceEpoch == Self.utc("2026-07-01T17:00Z"))
        #expect(try ISO8601.parse("2026-07-01T12:00", localIn: .utc) == ISO8601.parse("2026-07-01T12:00"))
        #expect(throws: ISO8601.ParseError.self) { try ISO8601.parse("yesterday", localIn: Self.berlin) }
    }

    @Test func aDayIsFromLocalMidnightToLocalMidnightEvenWhenTheClocksChange() throws {
        func day(_ text: String) throws -> (from: Int64, to: Int64) {
            (try ISO8601.rangeBound(text, endOfDay: false, localIn: Self.berlin), try ISO8601.rangeBound(text, endOfDay: true, localIn: Self.berlin))
        }
        let spring = try day("2026-03-29")
        #expect(spring.from == Self.utc("2026-03-28T23:00Z"))
        #expect(spring.to == Self.utc("2026-03-29T22:00Z"))
        #expect(spring.to - spring.from == 23 * 3_600_000)
        let autumn = try day("2026-10-25")
        #expect(autumn.to - autumn.from == 25 * 3_600_000)
        let plain = try day("2026-11-20")
        #expect(plain.to - plain.from == 24 * 3_600_000)
        // A full date-time is that instant, whichever end of a range it bounds.
        #expect(try ISO8601.rangeBound("2026-11-20T08:00", endOfDay: true, localIn: Self.berlin) == Self.utc("2026-11-20T07:00Z"))
    }

    @Test func monthsAreTheFamilysCalendarMonths() throws {
        let lateOnTheThirtieth = Self.utc("2026-11-30T23:30Z")  // 00:30 on 1 December in Berlin
        #expect(CalendarMonth(utcMs: lateOnTheThirtieth).description == "2026-11")
        #expect(CalendarMonth(utcMs: lateOnTheThirtieth, in: Self.berlin).description == "2026-12")
        let december = try CalendarMonth.parse("2026-12")
        #expect(december.contains(utcMs: lateOnTheThirtieth, in: Self.berlin))
        #expect(!december.contains(utcMs: lateOnTheThirtieth))
        #expect(try CalendarMonth.parse("2026-04").startUTCMs(in: Self.berlin) == Self.utc("2026-03-31T22:00Z"))
        #expect(ISO8601.dateMinute(utcMs: lateOnTheThirtieth, in: Self.berlin) == "2026-12-01 00:30")
        #expect(ISO8601.dateMinute(utcMs: lateOnTheThirtieth, in: .utc) == "2026-11-30 23:30")
    }
}
