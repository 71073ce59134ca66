import Foundation
import Testing
import TestSupport

/// `fairfuel demo` end to end through the real executable: virtual MCU, pty, service, store.
@Suite struct DemoCommandTests {
    static let scenario = PackagePaths.root + "/Tests/CLITests/Fixtures/demo/two-drivers-one-refuel.scenario"

    static func jsonArray(_ text: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]
    }

    @Test(.timeLimit(.minutes(2))) func shortScenarioGivesItsTripsAndASplitThatSumsToTheBill() throws {
        let keep = NSTemporaryDirectory() + "fairfuel-demo-test-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: keep) }
        let demo = try FairFuelExecutable.run(["demo", "--scenario", Self.scenario, "--speed", "1000", "--idle-speed", "20000", "--keep", keep])
        #expect(demo.exitCode == 0, "\(demo.standardError)")
        let output = demo.standardOutput
        #expect(output.contains("3 trip(s) so far"), "no progress line: \(output)")
        #expect(output.contains("3 trips, 1 refuel(s) entered"), "\(output)")
        #expect(output.contains("Trips (fairfuel trips):"))
        #expect(output.contains("Split of each refuel (fairfuel split):"))

        let db = keep + "/fairfuel.db"
        let trips = try Self.jsonArray(try FairFuelExecutable.run(["trips", "--json", "--db", db]).standardOutput)
        #expect(trips.map { $0["driver"] as? String } == ["Anna", "Ben", "Anna"])
        #expect(trips.allSatisfy { $0["end_reason"] as? String == "departed" })
        for (trip, planned) in zip(trips, [3.0, 2.0, 2.0]) {
            let km = trip["distance_km"] as? Double ?? 0
            #expect(abs(km - planned) < 0.3, "trip of \(km) km, planned \(planned)")
        }
        let splits = try Self.jsonArray(try FairFuelExecutable.run(["split", "--json", "--db", db]).standardOutput)
        #expect(splits.count == 1)
        let split = try #require(splits.first)
        #expect(split["cost_cents"] as? Int == 3590)
        let shares = try #require(split["shares"] as? [[String: Any]])
        #expect(shares.reduce(0) { $0 + ($1["cost_cents"] as? Int ?? 0) } == 3590)
        #expect(Set(shares.compactMap { $0["driver"] as? String }) == ["Anna", "Ben"])
    }

    @Test func throwAwayStoreIsRemovedAndBadArgumentsFailClearly() throws {
        let tmp = NSTemporaryDirectory() + "fairfuel-demo-tmp-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let demo = try FairFuelExecutable.run(
            ["demo", "--scenario", PackagePaths.root + "/scenarios/short-drive.scenario", "--speed", "1000", "--idle-speed", "20000", "--quiet"],
            environment: ["TMPDIR": tmp])
        #expect(demo.exitCode == 0, "\(demo.standardError)")
        #expect(demo.standardOutput.contains("Anna"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "the throw-away store was left behind")

        let badSpeed = try FairFuelExecutable.run(["demo", "--speed", "0"])
        #expect(badSpeed.exitCode != 0)
        #expect(badSpeed.standardError.contains("--speed must be above 0"))
        let missing = try FairFuelExecutable.run(["demo", "--scenario", tmp + "/nope.scenario"])
        #expect(missing.exitCode != 0)
        #expect(missing.standardError.contains("cannot read the scenario"))
    }
}
