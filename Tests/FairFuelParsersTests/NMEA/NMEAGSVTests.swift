import FairFuelParsers
import Testing

@Suite struct NMEAGSVTests {
    let parser = NMEAParser()

    @Test func realSentenceNMEA41() throws {
        let gsv = try #require(parser.parse("$GLGSV,3,1,10,85,85,247,32,69,53,053,37,70,52,187,27,86,36,310,,1*72").gsv)
        #expect(gsv.talker == .glonass)
        #expect(gsv.messageCount == 3 && gsv.messageNumber == 1 && gsv.satellitesInView == 10)
        #expect(gsv.satelliteCount == 4)
        #expect(gsv.satellite(0) == NMEASatelliteInView(id: 85, elevation: 85, azimuth: 247, snr: 32))
        #expect(gsv.satellite(3) == NMEASatelliteInView(id: 86, elevation: 36, azimuth: 310, snr: nil))
        #expect(gsv.signalID == 1)
        #expect(!gsv.isLastOfGroup)
    }

    @Test func shortGroupsAndPadding() throws {
        let last = try #require(parser.parse("$GPGSV,4,4,13,39,31,170,27*40").gsv)
        #expect(last.satelliteCount == 1 && last.isLastOfGroup)
        let none = try #require(parser.parse("$GPGSV,4,4,13*7B").gsv)
        #expect(none.satelliteCount == 0)
        let padded = try #require(parser.parse("$GPGSV,3,3,11,22,42,067,42,24,14,311,43,27,05,244,00,,,,*4D").gsv)
        #expect(padded.satelliteCount == 3)
        let decimals = try #require(parser.parse("$GPGSV,3,1,11,09,57,333,29.0,07,54,227,,04,49,043,24.5,03,43,129,,1*67").gsv)
        #expect(decimals.satellite(0).snr == 29 && decimals.satellite(2).snr == 25 && decimals.signalID == 1)
    }

    @Test func unusedBlocksAndOddValues() throws {
        // Satellites in view without a position: elevation and azimuth empty.
        let noPosition = try #require(parser.parse("$GPGSV,2,2,06,28,66,165,,39,,,34,1*57").gsv)
        #expect(noPosition.satellite(1) == NMEASatelliteInView(id: 39, snr: 34))
        let negative = try #require(parser.parse(nmea("GPGSV,1,1,01,05,-2.5,360,0")).gsv)
        #expect(negative.satellite(0) == NMEASatelliteInView(id: 5, elevation: -3, azimuth: 0, snr: 0))
    }

    @Test func everyFieldEmpty() throws {
        let gsv = try #require(parser.parse(nmea("GPGSV,,,,,,,,,,,,,,,,,,,")).gsv)
        #expect(gsv == NMEAGSV(talker: .gps))
    }

    @Test(arguments: [
        ("GPGSV,3,1,1x,09,57,333,29,07,54,227,,04,49,043,24,03,43,129,", NMEAError.badField(.gsv, field: 3)),
        ("GPGSV,3,1,11,09,5.7.,333,29,07,54,227,,04,49,043,24,03,43,129,", .badField(.gsv, field: 5)),
        ("GPGSV,3,1,11,09,91,333,29,07,54,227,,04,49,043,24,03,43,129,", .badField(.gsv, field: 5)),
        ("GPGSV,3,1,11,09,57,333,256,07,54,227,,04,49,043,24,03,43,129,", .badField(.gsv, field: 7)),
        ("GPGSV,3,1,11,70000,57,333,29,07,54,227,,04,49,043,24,03,43,129,", .badField(.gsv, field: 4)),
        ("GPGSV,3,1,11,09,57,333,29,07,54,227,,04,49,043,24,03,43,129,,1,2,3,4", .tooManyFields(.gsv, count: 23, maximum: 20)),
    ])
    func singleDefect(body: String, error: NMEAError) {
        #expect(decodeResult(nmea(body)) == .failure(error), "\(body)")
    }
}
