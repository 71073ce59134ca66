import FairFuelCore
import FairFuelParsers
import Testing

@Suite struct NMEARMCTests {
    let parser = NMEAParser()

    @Test func realSentence() throws {
        let rmc = try #require(parser.parse("$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D").rmc)
        #expect(rmc.talker == .gps)
        #expect(rmc.time == utcTime(3, 7, 19))
        #expect(rmc.status == .active)
        #expect(nearlyEqual(rmc.latitude, -(37 + 47.0873 / 60), 1e-12))
        #expect(nearlyEqual(rmc.longitude, 175 + 18.8938 / 60, 1e-12))
        #expect(nearlyEqual(rmc.speed?.value, 0.69 * 1852 / 3600, 1e-12))
        #expect(rmc.course == 181.39)
        #expect(rmc.date == utcDay(2014, 12, 31))
        #expect(rmc.magneticVariation == nil)
        #expect(rmc.mode == .autonomous)
        #expect(rmc.navigationalStatus == nil)
        #expect(rmc.isValidFix)
    }

    @Test func nmea41Extras() throws {
        // Quectel: magnetic variation, mode and navigational status.
        let rmc = try #require(parser.parse("$GPRMC,022021.00,A,3644.759368,S,17444.072860,E,0.0,301.9,071020,18.3,E,A,V*6E").rmc)
        #expect(rmc.magneticVariation == 18.3)
        #expect(rmc.mode == .autonomous)
        #expect(rmc.navigationalStatus == .notValid)
        #expect(nearlyEqual(rmc.latitude, -(36 + 44.759368 / 60), 1e-12))
        let west = try #require(parser.parse(nmea("GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,W")).rmc)
        #expect(west.magneticVariation == -11.3)
        #expect(west.date == utcDay(1998, 9, 13))
    }

    @Test func statusVoid() throws {
        let rmc = try #require(parser.parse("$GPRMC,000344.03,V,0000.0000,N,00000.0000,E,,,161206,,,N".withChecksum).rmc)
        #expect(rmc.status == .void)
        #expect(rmc.mode == .notValid)
        #expect(!rmc.isValidFix)
    }

    @Test func everyFieldEmpty() throws {
        let rmc = try #require(parser.parse(nmea("GPRMC,,,,,,,,,,,,,")).rmc)
        #expect(rmc == NMEARMC(talker: .gps))
        let quectel = try #require(parser.parse("$GPRMC,,V,,,,,,,,,,N*53").rmc)
        #expect(quectel.time == nil && quectel.latitude == nil && quectel.speed == nil && quectel.date == nil)
        #expect(quectel.status == .void)
    }

    @Test func lenientExtras() throws {
        // Motorola T805 shifts the mode letter into the variation direction.
        let rmc = try #require(parser.parse("$GPRMC,212614.879,A,4839.9488,N,00214.8863,E,0.56,344.41,181207,0,A*77").rmc)
        #expect(rmc.magneticVariation == nil)
        #expect(rmc.date == utcDay(2007, 12, 18))
        let odd = try #require(parser.parse(nmea("GPRMC,212614.879,D,4839.9488,N,00214.8863,E,0.56,344.41,181207,x,Q,Z,Q")).rmc)
        #expect(odd.status == .active && odd.mode == nil && odd.navigationalStatus == nil)
    }

    static let base = "GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.016,,280214,,,A"

    @Test func baseIsValid() throws {
        let rmc = try #require(parser.parse(nmea(NMEARMCTests.base)).rmc)
        #expect(rmc.time == utcTime(12, 32, 5))
        #expect(rmc.course == nil)
    }

    /// minmea style: the base sentence with exactly one defect.
    @Test(arguments: [
        ("GPRMC,126205.00,A,5106.94085,N,01701.51689,E,0.016,,280214,,,A", 1),  // minute 62
        ("GPRMC,243205.00,A,5106.94085,N,01701.51689,E,0.016,,280214,,,A", 1),  // hour 24
        ("GPRMC,12320,A,5106.94085,N,01701.51689,E,0.016,,280214,,,A", 1),  // five digits
        ("GPRMC,1232a5.00,A,5106.94085,N,01701.51689,E,0.016,,280214,,,A", 1),
        ("GPRMC,123205:00,A,5106.94085,N,01701.51689,E,0.016,,280214,,,A", 1),
        ("GPRMC,123205.0x,A,5106.94085,N,01701.51689,E,0.016,,280214,,,A", 1),
        ("GPRMC,123205.00,A,5160.94085,N,01701.51689,E,0.016,,280214,,,A", 3),  // 60 minutes
        ("GPRMC,123205.00,A,9106.94085,N,01701.51689,E,0.016,,280214,,,A", 3),  // 91 degrees
        ("GPRMC,123205.00,A,51O6.94085,N,01701.51689,E,0.016,,280214,,,A", 3),
        ("GPRMC,123205.00,A,5106.9408.5,N,01701.51689,E,0.016,,280214,,,A", 3),
        ("GPRMC,123205.00,A,-5106.94085,N,01701.51689,E,0.016,,280214,,,A", 3),
        ("GPRMC,123205.00,A,5106.94085,X,01701.51689,E,0.016,,280214,,,A", 4),
        ("GPRMC,123205.00,A,5106.94085,,01701.51689,E,0.016,,280214,,,A", 4),
        ("GPRMC,123205.00,A,5106.94085,NN,01701.51689,E,0.016,,280214,,,A", 4),
        ("GPRMC,123205.00,A,5106.94085,N,18101.51689,E,0.016,,280214,,,A", 5),
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,N,0.016,,280214,,,A", 6),
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.0.16,,280214,,,A", 7),
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,fast,,280214,,,A", 7),
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.016,1e5,280214,,,A", 8),
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.016,,300214,,,A", 9),  // 30 February
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.016,,281314,,,A", 9),  // month 13
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.016,,28021,,,A", 9),
        ("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.016,,2802140,,,A", 9),
    ])
    func singleDefect(body: String, field: Int) {
        #expect(decodeResult(nmea(body)) == .failure(.badField(.rmc, field: field)), "\(body)")
    }

    @Test func truncatedIsTooFewFields() {
        #expect(
            decodeResult(nmea("GPRMC,123205.00,A,5106.94085,N,01701.51689,E,0.016"))
                == .failure(.tooFewFields(.rmc, count: 7, minimum: 9)))
    }
}
