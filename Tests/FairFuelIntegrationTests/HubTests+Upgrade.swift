import Foundation
import Testing
import TestSupport

extension HubTests {
    /// A hub directory written the old way (`--car-directories`) upgraded by a hub on the default
    /// database: its cars imported once into DIR/hub.db, `family DIR` the same book, the old car
    /// directories kept and no longer written, and what arrives next only in the database.
    @Test(.timeLimit(.minutes(1)))
    func anOldHubDirectoryIsImportedOnceIntoTheDefaultDatabase() throws {
        let scratch = try HubScratch(prefix: "fairfuel-hub-upgrade")
        defer { scratch.close() }
        let (harness, hubDirectory) = (scratch.harness, scratch.hubDirectory)
        let url = "mqtt://127.0.0.1:\(harness.port)"
        let car = "0123456789abcdef0123456789abcdef"
        let refused = try FairFuelExecutable.run(["hub", "--url", url, "--dir", hubDirectory, "--car-directories", "--db", scratch.directory + "/x.db"])
        #expect(refused.exitCode != 0 && refused.standardError.contains("exclusive"), "\(refused.standardError)")

        let old = ["hub", "--url", url, "--dir", hubDirectory, "--car-directories", "--until-idle", "1"]
        _ = try Self.run(old)  // the session, so the broker keeps what is published next
        for id in 1...2 { try Self.publishRaw("fairfuel/\(car)/trip", IntegrationTests.HubDatabaseBurstTests.trip(vehicle: car, id: id), port: harness.port) }
        #expect(try Self.run(old).standardOutput.contains("2 record message(s) kept"))
        #expect(!FileManager.default.fileExists(atPath: Self.database(hubDirectory)), "no database the old way")
        let carFiles = "\(hubDirectory)/\(car)/.fairfuel-pull/hub-records.tsv"
        let filesBefore = try String(contentsOfFile: carFiles, encoding: .utf8)
        let familyBefore = try Self.run(["family", hubDirectory, "--json"]).standardOutput

        let upgraded = try Self.hub(hubDirectory, port: harness.port)
        #expect(upgraded.standardError.contains("imported 2 record(s) of \(hubDirectory)'s cars into \(Self.database(hubDirectory))"),
                "\(upgraded.standardError)")
        #expect(try Self.run(["family", hubDirectory, "--json"]).standardOutput == familyBefore, "the same book, from the database")
        #expect(!(try Self.hub(hubDirectory, port: harness.port)).standardError.contains("imported"), "once")

        try Self.publishRaw("fairfuel/\(car)/trip", IntegrationTests.HubDatabaseBurstTests.trip(vehicle: car, id: 3), port: harness.port)
        #expect(try Self.hub(hubDirectory, port: harness.port).standardOutput.contains("1 record message(s) kept"))
        #expect(try String(contentsOfFile: carFiles, encoding: .utf8) == filesBefore, "the old car directory is kept, not written")
        let family = try JSONSerialization.jsonObject(with: Data(try Self.run(["family", hubDirectory, "--json"]).standardOutput.utf8)) as? [[String: Any]]
        #expect(family?.first { $0["driver"] as? String == "Anna" }?["trips"] as? Int == 3, "\(family ?? [])")
        let status = try Self.run(["hub", "status", "--dir", hubDirectory]).standardOutput
        #expect(status.contains("cars: 1 in \(Self.database(hubDirectory))\n  \(car): 3 trip(s)"), "\(status)")
    }
}
