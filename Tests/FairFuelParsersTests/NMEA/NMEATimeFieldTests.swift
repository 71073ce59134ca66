import FairFuelCore
import FairFuelParsers
import Foundation
import Testing

/// The date and time fields of NMEA sentences, on top of the calendar (FairFuelCore's UTCTimestampTests).
extension NMEATests {
    @Suite struct NMEATimeFieldTests {
        @Test(arguments: [(80, 1980), (99, 1999), (0, 2000), (26, 2026), (79, 2079)])
        func twoDigitYearPivot(twoDigit: Int, year: Int) throws {
            #expect(UTCDate.year(twoDigit: twoDigit) == year)
            let text = String(format: "010%d%02d", 1, twoDigit)
            let rmc = try #require(NMEAParser().parse(nmea("GPRMC,000000,A,0000.000,N,00000.000,E,0,0,\(text)")).rmc)
            #expect(rmc.date?.year == year)
        }

        @Test(arguments: [
            ("123519", 45_319_000), ("123519.", 45_319_000), ("123519.5", 45_319_500),
            ("123519.12", 45_319_120), ("123519.123", 45_319_123), ("123519.1234", 45_319_123),
            ("123519.1235", 45_319_124), ("123519.9996", 45_320_000), ("235960", 86_400_000),
            ("235959.9999", 86_400_000),
        ])
        func fractionalSecondsKeepMilliseconds(field: String, milliseconds: Int) throws {
            let gll = try #require(NMEAParser().parse(nmea("GPGLL,,,,,\(field),V")).gll)
            #expect(gll.time?.milliseconds == Int32(milliseconds), "\(field)")
        }
    }
}
