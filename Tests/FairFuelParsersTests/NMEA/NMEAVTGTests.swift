import FairFuelCore
import FairFuelParsers
import Testing

@Suite struct NMEAVTGTests {
    let parser = NMEAParser()

    @Test func realSentences() throws {
        let garmin = try #require(parser.parse("$GPVTG,226,T,222,M,000.0,N,0000.0,K,D*12").vtg)
        #expect(garmin == NMEAVTG(talker: .gps, courseTrue: 226, courseMagnetic: 222, speed: .knots(0), mode: .differential))
        let minmea = try #require(parser.parse("$GPVTG,188.36,T,,M,0.820,N,1.519,K,A*3F").vtg)
        #expect(minmea.courseTrue == 188.36 && minmea.courseMagnetic == nil)
        #expect(nearlyEqual(minmea.speed?.value, 0.820 * 1852 / 3600, 1e-12))
        let old = try #require(parser.parse("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48").vtg)
        #expect(old.mode == nil)
    }

    @Test func cutAfterKnots() throws {
        let vtg = try #require(NMEAParser().parse("$GPVTG,,T,,M,0.00,N*1B").vtg)
        #expect(vtg.speed == .knots(0) && vtg.courseTrue == nil)
    }

    @Test func speedFromKilometresPerHourWhenKnotsAreEmpty() throws {
        let vtg = try #require(parser.parse(nmea("GPVTG,10.0,T,,M,,N,36.0,K,A")).vtg)
        #expect(nearlyEqual(vtg.speed?.value, 10, 1e-12))
    }

    @Test func everyFieldEmpty() throws {
        #expect(try parser.parse("$GNVTG,,,,,,,,,N*2E").vtg == NMEAVTG(talker: .combined, mode: .notValid))
        #expect(try parser.parse("$GPVTG,,T,,M,,N,,K,N*2C").vtg == NMEAVTG(talker: .gps, mode: .notValid))
        #expect(try parser.parse(nmea("GPVTG,,,,,,,,")).vtg == NMEAVTG(talker: .gps))
    }

    @Test(arguments: [
        ("GPVTG,x,T,034.4,M,005.5,N,010.2,K", 1),
        ("GPVTG,054.7,T,034.4,M,5.5.5,N,010.2,K", 5),
        ("GPVTG,054.7,T,034.4,M,005.5,N,1O.2,K", 7),
    ])
    func singleDefect(body: String, field: Int) {
        #expect(decodeResult(nmea(body)) == .failure(.badField(.vtg, field: field)), "\(body)")
    }

    @Test func oldLayoutWithoutUnitLettersIsTooShort() {
        #expect(decodeResult(nmea("GPVTG,054.7,034.4,005.5,010.2")) == .failure(.tooFewFields(.vtg, count: 4, minimum: 5)))
    }
}
