import Foundation
import Testing
import TestSupport

/// `fairfuel nmea --json FILE` reads raw bytes through the same lexer and parser as
/// the parser tests: its output is the reviewed golden `*.log.ffchk` of each fixture.
@Suite struct NMEACommandTests {
    static let fixtures = PackagePaths.root + "/Tests/FairFuelParsersTests/Fixtures/nmea"

    @Test(arguments: [
        "synthetic/marine-talkers.log", "synthetic/nmea-ubx.log", "synthetic/nmea-casic.log", "synthetic/casic-only.log",
        "synthetic/gga-10hz.log", "synthetic/midnight.log", "gpsd/mixed-binary/ublox-neo-m8l.log",
    ])
    func jsonMatchesTheGoldenDecode(log: String) throws {
        let result = try FairFuelExecutable.run(["nmea", "--json", Self.fixtures + "/" + log])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let golden = try String(contentsOfFile: Self.fixtures + "/" + log + ".ffchk", encoding: .utf8)
        #expect(result.standardOutput == golden)
    }

    @Test func tableMarksDerivedSpeed() throws {
        let result = try FairFuelExecutable.run(["nmea", Self.fixtures + "/synthetic/gga-10hz.log"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("~"))
        #expect(result.standardOutput.contains("garbage_bytes 0"))
    }
}
