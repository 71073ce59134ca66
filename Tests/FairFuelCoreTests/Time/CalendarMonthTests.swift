import FairFuelCore
import Testing

@Suite struct CalendarMonthTests {
    /// 2026-11-20T08:00:00Z.
    static let t0: Int64 = 1_795_161_600_000

    @Test func monthsAndRangeBounds() throws {
        let month = try CalendarMonth.parse("2026-12")
        #expect(month.description == "2026-12")
        #expect(month.next.description == "2027-01")
        #expect(month.startUTCMs == Self.t0 + 10 * 86_400_000 + 16 * 3_600_000)
        #expect(month.contains(utcMs: month.endUTCMs - 1) && !month.contains(utcMs: month.endUTCMs))
        for bad in ["2026-13", "2026-1", "26-11", "2026/11", "", "2026-11-01"] {
            #expect(throws: CalendarMonth.ParseError.malformed(bad)) { try CalendarMonth.parse(bad) }
        }
        #expect(try ISO8601.rangeBound("2026-11-20", endOfDay: false) == Self.t0 - 8 * 3_600_000)
        #expect(try ISO8601.rangeBound("2026-11-20", endOfDay: true) == Self.t0 + 16 * 3_600_000)
        #expect(try ISO8601.rangeBound("2026-11-20T08:00Z", endOfDay: true) == Self.t0)
    }
}
