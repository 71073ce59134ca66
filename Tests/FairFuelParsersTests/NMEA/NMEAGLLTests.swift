import FairFuelParsers
import Testing

@Suite struct NMEAGLLTests {
    let parser = NMEAParser()

    @Test func realSentences() throws {
        let garmin = try #require(parser.parse("$GPGLL,5213.1439,N,02100.6511,E,093802,A,D*48").gll)
        #expect(nearlyEqual(garmin.latitude, 52 + 13.1439 / 60, 1e-12))
        #expect(nearlyEqual(garmin.longitude, 21 + 0.6511 / 60, 1e-12))
        #expect(garmin.time == utcTime(9, 38, 2))
        #expect(garmin.status == .active && garmin.mode == .differential && garmin.isValidFix)
        let minmea = try #require(parser.parse("$GPGLL,3723.2475,N,12158.3416,W,161229.487,A,A*41").gll)
        #expect(minmea.time == utcTime(16, 12, 29, 487))
        #expect(nearlyEqual(minmea.longitude, -(121 + 58.3416 / 60), 1e-12))
    }

    @Test func noFixAndOddStatus() throws {
        let empty = try #require(parser.parse("$GPGLL,,,,,,V,N*64").gll)
        #expect(empty == NMEAGLL(talker: .gps, status: .void, mode: .notValid))
        // Magellan eXplorist 110: status N, mode V.
        let odd = try #require(parser.parse("$GPGLL,3728.0549,N,12213.8639,W,014413.076,N,V*50\r").gll)
        #expect(odd.status == .void && odd.mode == nil && !odd.isValidFix)
    }

    @Test func everyFieldEmpty() throws {
        #expect(try parser.parse(nmea("GPGLL,,,,,,,")).gll == NMEAGLL(talker: .gps))
    }

    @Test(arguments: [
        ("GPGLL,3723.2475,Q,12158.3416,W,161229.487,A,A", 2),
        ("GPGLL,3723.2475,N,12158.3416,S,161229.487,A,A", 4),
        ("GPGLL,3723.2475,N,12158.3416,W,161269.487,A,A", 5),
    ])
    func singleDefect(body: String, field: Int) {
        #expect(decodeResult(nmea(body)) == .failure(.badField(.gll, field: field)), "\(body)")
    }

    @Test func nmea15LayoutIsTooShort() {
        #expect(decodeResult(nmea("GPGLL,4916.45,N,12311.12,W")) == .failure(.tooFewFields(.gll, count: 4, minimum: 6)))
    }
}
