import FairFuelCore
import Foundation
import Testing
import TestSupport

@Suite struct UTCTimestampTests {
    @Test func iso8601() {
        let instant = UTCTimestamp(date: utcDay(2026, 11, 20), time: utcTime(8, 0, 1))
        #expect(instant.iso8601 == "2026-11-20T08:00:01.000Z")
        #expect(UTCTimestamp(millisecondsSinceEpoch: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(UTCTimestamp(millisecondsSinceEpoch: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(UTCTimestamp(date: utcDay(2000, 2, 29), time: utcTime(23, 59, 59, 987)).iso8601 == "2000-02-29T23:59:59.987Z")
    }

    @Test func knownDays() {
        #expect(utcDay(1970, 1, 1).daysSinceEpoch == 0)
        #expect(utcDay(2000, 3, 1).daysSinceEpoch == 11_017)
        #expect(utcDay(1969, 12, 31).daysSinceEpoch == -1)
        #expect(UTCDate(daysSinceEpoch: 20_412) == utcDay(2025, 11, 20))
    }

    @Test func civilRoundTripAgainstFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let date = UTCDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            if (1600...9999).contains(date.year) {  // Foundation is Julian before 1582
                let reference = calendar.dateComponents(
                    [.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
                #expect(reference.year == date.year && reference.month == date.month && reference.day == date.day)
            }
        }
    }

    @Test func isoMatchesFoundationFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let milliseconds = Int64(generator.next() % 4_102_444_800_000)  // 1970...2100
            let ours = UTCTimestamp(millisecondsSinceEpoch: milliseconds).iso8601
            let theirs = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            #expect(ours == theirs)
        }
    }

    @Test func invalidDaysAreRefused() {
        #expect(UTCDate(year: 2024, month: 2, day: 29) != nil)
        #expect(UTCDate(year: 2100, month: 2, day: 29) == nil)
        #expect(UTCDate(year: 2023, month: 4, day: 31) == nil)
        #expect(UTCDate(year: 2023, month: 0, day: 1) == nil)
    }

    @Test func timeOfDayParts() {
        let time = utcTime(23, 59, 60, 250)
        #expect(time.hour == 23 && time.minute == 59 && time.second == 60 && time.millisecond == 250)
        #expect(utcTime(8, 0, 1, 5).description == "08:00:01.005")
        #expect(UTCTimeOfDay(hour: 24, minute: 0, second: 0) == nil)
    }
}

private func utcTime(_ hour: Int, _ minute: Int, _ second: Int, _ millisecond: Int = 0) -> UTCTimeOfDay {
    UTCTimeOfDay(hour: hour, minute: minute, second: second, millisecond: millisecond)!
}

private func utcDay(_ year: Int, _ month: Int, _ day: Int) -> UTCDate {
    UTCDate(year: year, month: month, day: day)!
}
