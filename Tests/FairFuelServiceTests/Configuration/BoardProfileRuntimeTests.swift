import FairFuelConfiguration
import FairFuelDomain
import FairFuelParsers
import FairFuelService
import Testing

/// What a board profile gives the domain and the GNSS lexer (`BoardProfile+Runtime`, the
/// service's reading of the profile: configuration itself knows no domain type).
@Suite("Board profile: the service's sizes")
struct BoardProfileRuntimeTests {
    @Test("gnss.max_packet_bytes sizes the GNSS lexer the service reads NMEA with; out of range is refused by name")
    func lexerBufferFromTheProfile() throws {
        let profile = try BoardProfile.load(text: "[gnss]\nmax_packet_bytes = 1_024\n")
        #expect(profile.nmeaConfiguration.maximumPacketBytes == 1024)
        #expect(NMEAStreamDecoder(configuration: profile.nmeaConfiguration).lexer.maximumPacketBytes == 1024)
        #expect(BoardProfile.piZero2W.nmeaConfiguration.maximumPacketBytes == GNSSPacketLexer.defaultMaximumPacketBytes)
        for bad in ["100", "70000"] {
            #expect {
                try BoardProfile.load(text: "[gnss]\nmax_packet_bytes = \(bad)\n")
            } throws: { error in
                "\(error)".contains("max_packet_bytes")
            }
        }
    }
}

@Suite("Board profile: continuity")
struct BoardProfileContinuityTests {
    @Test("the [session] continuity keys size the domain's rule; defaults fit the README")
    func continuityKeysReachTheDomain() throws {
        let defaults = BoardProfile.piZero2W.monitorConfiguration.continuity
        #expect(defaults.sameTripMaxStopMs == 1_200_000 && defaults.newTripMaxStopMs == 10_800_000 && defaults.decisionWindowMs == 30_000)
        let profile = try BoardProfile.load(text: """
            [session]
            same_trip_max_stop_s = 900
            new_trip_max_stop_s = 3_600
            continuity_decision_s = 45
            """)
        let continuity = profile.monitorConfiguration.continuity
        #expect(continuity.sameTripMaxStopMs == 900_000 && continuity.newTripMaxStopMs == 3_600_000 && continuity.decisionWindowMs == 45_000)
        #expect(throws: (any Error).self) { try BoardProfile.load(text: "[session]\ncontinuity_decision_s = 0\n") }
    }
}
