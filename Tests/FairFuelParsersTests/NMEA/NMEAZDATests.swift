import FairFuelParsers
import Testing

@Suite struct NMEAZDATests {
    let parser = NMEAParser()

    @Test func realSentences() throws {
        let zda = try #require(parser.parse("$GPZDA,160012.71,11,03,2004,-1,00*7D").zda)
        #expect(zda.time == utcTime(16, 0, 12, 710))
        #expect(zda.date == utcDay(2004, 3, 11))
        #expect(zda.localZoneHours == -1 && zda.localZoneMinutes == 0)
        let empty = try #require(parser.parse("$GPZDA,143054.000,18,07,2008,,*55").zda)
        #expect(empty.date == utcDay(2008, 7, 18) && empty.localZoneHours == nil)
    }

    @Test func everyFieldEmpty() throws {
        #expect(try parser.parse(nmea("GPZDA,,,,,,")).zda == NMEAZDA(talker: .gps))
    }

    @Test(arguments: [
        ("GPZDA,160012.71,32,03,2004,-1,00", 4),
        ("GPZDA,160012.71,11,13,2004,-1,00", 4),
        ("GPZDA,160012.71,11,03,04,-1,00", 4),  // two-digit year
        ("GPZDA,160012.71,11,,2004,-1,00", 4),  // partial date
        ("GPZDA,160012.71,29,02,2100,-1,00", 4),  // not a leap year
        ("GPZDA,1600x2.71,11,03,2004,-1,00", 1),
    ])
    func singleDefect(body: String, field: Int) {
        #expect(decodeResult(nmea(body)) == .failure(.badField(.zda, field: field)), "\(body)")
    }
}
