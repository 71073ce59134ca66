import FairFuelCore
import FairFuelParsers
import Testing

@Suite struct NMEAGNSTests {
    let parser = NMEAParser()

    @Test func realSentenceNMEA41() throws {
        let gns = try #require(parser.parse("$GNGNS,120213.000,5957.0062,N,01100.6429,E,NDD,11,1.3,168.9,39.5,,,V*57").gns)
        #expect(gns.talker == .combined)
        #expect(gns.time == utcTime(12, 2, 13))
        #expect(nearlyEqual(gns.latitude, 59 + 57.0062 / 60, 1e-12))
        let modes = try #require(gns.modes)
        #expect(modes.count == 3)
        #expect(modes[0] == .notValid && modes[1] == .differential && modes[2] == .differential)
        #expect(gns.isValidFix)
        #expect(gns.satellitesUsed == 11 && gns.hdop == 1.3)
        #expect(gns.altitude == Meters(168.9) && gns.geoidSeparation == Meters(39.5))
        #expect(gns.navigationalStatus == .notValid)
    }

    @Test func withoutNavigationalStatus() throws {
        let gns = try #require(parser.parse("$GNGNS,170600.000,4111.59880,N,11156.56667,W,AANN,21,0.53,01443.9,-016.5,,*54").gns)
        #expect(gns.modes?.count == 4)
        #expect(gns.altitude == Meters(1443.9))
        #expect(gns.geoidSeparation == Meters(-16.5))
        #expect(gns.navigationalStatus == nil)
    }

    @Test func everyFieldEmptyAndNoFix() throws {
        #expect(try parser.parse(nmea("GNGNS,,,,,,,,,,,,")).gns == NMEAGNS(talker: .combined))
        let none = try #require(parser.parse(nmea("GNGNS,,,,,,NN,00,,,,,,V")).gns)
        #expect(!none.isValidFix)
    }

    @Test(arguments: [
        ("GNGNS,120213.000,5957.0062,N,01100.6429,E,NXD,11,1.3,168.9,39.5,,,V", 6),
        ("GNGNS,120213.000,5957.0062,N,01100.6429,E,NDD,1 1,1.3,168.9,39.5,,,V", 7),
        ("GNGNS,120213.000,5957.0062,N,01100.6429,E,NDD,11,1.3,1b8.9,39.5,,,V", 9),
        ("GNGNS,120213.000,5957.0062,S,01100.6429,W,NDD,11,1.3,168.9,39.5,,,V", nil),
    ] as [(String, Int?)])
    func singleDefect(body: String, field: Int?) {
        let result = decodeResult(nmea(body))
        if let field {
            #expect(result == .failure(.badField(.gns, field: field)), "\(body)")
        } else {
            #expect((try? result.get()) != nil, "\(body)")
        }
    }
}
