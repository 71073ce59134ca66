import FairFuelCore
import FairFuelParsers
import Testing

@Suite struct NMEAGGATests {
    let parser = NMEAParser()

    @Test func realSentence() throws {
        let gga = try #require(parser.parse("$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D").gga)
        #expect(gga.time == utcTime(3, 7, 19))
        #expect(nearlyEqual(gga.latitude, -(37 + 47.0873 / 60), 1e-12))
        #expect(nearlyEqual(gga.longitude, 175 + 18.8938 / 60, 1e-12))
        #expect(gga.quality == .gps)
        #expect(gga.satellitesUsed == 8)
        #expect(gga.hdop == 1.1)
        #expect(gga.altitude == Meters(59.9))
        #expect(gga.geoidSeparation == Meters(23.7))
        #expect(gga.differentialAge == nil)
        #expect(gga.differentialStation == 0)
    }

    @Test func highPrecisionAndNegativeAltitude() throws {
        let gga = try #require(parser.parse("$GPGGA,132829.90,4134.49950965,N,09345.03456915,W,2,09,1.0,279.275,M,-31.442,M,14.8,0133*47").gga)
        #expect(gga.time == utcTime(13, 28, 29, 900))
        #expect(nearlyEqual(gga.latitude, 41 + 34.49950965 / 60, 1e-12))
        #expect(nearlyEqual(gga.longitude, -(93 + 45.03456915 / 60), 1e-12))
        #expect(gga.quality == .differential)
        #expect(gga.geoidSeparation == Meters(-31.442))
        #expect(gga.differentialAge == 14.8)
        #expect(gga.differentialStation == 133)
    }

    @Test func noFix() throws {
        let hemisphere = try #require(parser.parse("$GPGGA,,,,,,0,,,,M,,M,,*66").gga)
        #expect(hemisphere == NMEAGGA(talker: .gps, quality: .invalid))
        let minmea = try #require(parser.parse("$GPGGA,,,,,,0,00,99.99,,,,,,*48").gga)
        #expect(minmea.satellitesUsed == 0 && minmea.hdop == 99.99 && minmea.time == nil)
    }

    @Test func everyFieldEmpty() throws {
        #expect(try parser.parse(nmea("GPGGA,,,,,,,,,,,,,,")).gga == NMEAGGA(talker: .gps))
        // saab-r4: fields after the quality left empty.
        let saab = try #require(parser.parse("$GPGGA,130711,5012.790800,N,00806.879600,W,2,,,,,,,*6A").gga)
        #expect(saab.quality == .differential && saab.altitude == nil && saab.satellitesUsed == nil)
    }

    @Test(arguments: [
        ("GPGGA,123519,4807.038,N,01131.000,E,9,08,0.9,545.4,M,46.9,M,,", 6),  // no quality 9
        ("GPGGA,123519,4807.038,N,01131.000,E,x,08,0.9,545.4,M,46.9,M,,", 6),
        ("GPGGA,123519,4807.038,N,01131.000,E,1,0x8,0.9,545.4,M,46.9,M,,", 7),
        ("GPGGA,123519,4807.038,N,01131.000,E,1,-8,0.9,545.4,M,46.9,M,,", 7),
        ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0..9,545.4,M,46.9,M,,", 8),
        ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4.1,M,46.9,M,,", 9),
        ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,-,M,46.9,M,,", 9),
        ("GPGGA,|19322|1.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 1),  // tcp-torture
        ("GPGGA,123519,8960.0000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 2),  // tr737A+: 60 minutes
    ])
    func singleDefect(body: String, field: Int) {
        #expect(decodeResult(nmea(body)) == .failure(.badField(.gga, field: field)), "\(body)")
    }

    @Test func lenientExtras() throws {
        let gga = try #require(parser.parse(nmea("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,F,x,Q,?,ab")).gga)
        #expect(gga.altitude == Meters(545.4) && gga.geoidSeparation == nil)
        #expect(gga.differentialAge == nil && gga.differentialStation == nil)
    }
}
