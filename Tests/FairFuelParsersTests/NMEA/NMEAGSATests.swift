import FairFuelParsers
import Testing

@Suite struct NMEAGSATests {
    let parser = NMEAParser()

    @Test func realSentenceNMEA41() throws {
        let gsa = try #require(parser.parse("$GNGSA,A,3,68,69,70,78,84,85,,,,,,,1.5,1.3,1.0,2*3D").gsa)
        #expect(gsa.talker == .combined)
        #expect(gsa.selection == .automatic)
        #expect(gsa.fixType == .fix3D)
        #expect(Array(gsa.satellites) == [68, 69, 70, 78, 84, 85])
        #expect(gsa.satellites.listedCount == 6)
        #expect(gsa.pdop == 1.5 && gsa.hdop == 1.3 && gsa.vdop == 1.0)
        #expect(gsa.systemID == 2)
    }

    @Test func gapsBetweenIDs() throws {
        let gsa = try #require(parser.parse("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39").gsa)
        #expect(Array(gsa.satellites) == [4, 5, 9, 12, 24])
        #expect(gsa.systemID == nil)
    }

    @Test func twentyFourIDSlots() throws {
        // Navior CH-4701 sends 24 id fields; the DOPs are the last three.
        let gsa = try #require(parser.parse("$GPGSA,A,3,23,13,07,25,,,,,,,,,,,,,,,,,,,,,09.2,07.2,05.7*0D").gsa)
        #expect(Array(gsa.satellites) == [23, 13, 7, 25])
        #expect(gsa.pdop == 9.2 && gsa.hdop == 7.2 && gsa.vdop == 5.7)
    }

    @Test func moreThanTwelveIDsAreCounted() throws {
        let ids = (1...14).map { String(format2($0)) }.joined(separator: ",")
        let gsa = try #require(parser.parse(nmea("GPGSA,A,3," + ids + ",,,,,,,,,,,1.0,1.0,1.0")).gsa)
        #expect(gsa.satellites.count == 12)
        #expect(gsa.satellites.listedCount == 14)
    }

    @Test func noFix() throws {
        let gsa = try #require(parser.parse("$GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99*30").gsa)
        #expect(gsa.fixType == .noFix && gsa.satellites.isEmpty && gsa.hdop == 99.99)
    }

    @Test func everyFieldEmpty() throws {
        #expect(try parser.parse(nmea("GPGSA,,,,,,,,,,,,,,,,,")).gsa == NMEAGSA(talker: .gps))
    }

    @Test(arguments: [
        ("GPGSA,A,4,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", 2),
        ("GPGSA,A,x,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", 2),
        ("GPGSA,A,3,04,0x5,,09,12,,,24,,,,,2.5,1.3,2.1", 4),
        ("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1..3,2.1", 16),
    ])
    func singleDefect(body: String, field: Int) {
        #expect(decodeResult(nmea(body)) == .failure(.badField(.gsa, field: field)), "\(body)")
    }

    @Test func iTrekShortGSAIsTooShort() {
        #expect(decodeResult("$GPGSA,A,1,,,,*32") == .failure(.tooFewFields(.gsa, count: 6, minimum: 17)))
    }

    private func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
