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
        #expect(output.contains("4 trip(s) so far"), "no progress line: \(output)")
        #expect(output.contains("4 trips, 2 refuel(s) entered"), "\(output)")
        #expect(output.contains("Trips (fairfuel trips):"))
        #expect(output.contains("Split of each refuel (fairfuel split):"))

        let db = keep + "/fairfuel.db"
        let rows = try Self.jsonArray(try FairFuelExecutable.run(["trips", "--json", "--db", db]).standardOutput)
        let trips = rows.filter { $0["id"] is Int }
        #expect(trips.map { $0["driver"] as? String } == ["Anna", "Anna", "Ben", "Anna"])
        #expect(trips.allSatisfy { $0["end_reason"] as? String == "departed" })
        for (trip, planned) in zip(trips, [1.0, 3.0, 2.0, 2.0]) {
            let km = trip["distance_km"] as? Double ?? 0
            #expect(abs(km - planned) < 0.3, "trip of \(km) km, planned \(planned)")
        }
        let splits = try Self.jsonArray(try FairFuelExecutable.run(["split", "--json", "--db", db]).standardOutput)
        #expect(splits.count == 2)
        // The first fill-up, 0.9 km into Anna's first trip: she pays her estimated fuel at its price per
        // litre, the rest of the 30 L was burnt before tracking began.
        #expect(splits[0]["cost_cents"] as? Int == 5370)
        #expect(splits[0]["rule"] as? String == "first_fill")
        let first = try #require(splits[0]["shares"] as? [[String: Any]])
        #expect(first.map { $0["driver"] as? String } == ["Anna", nil])
        #expect(first.map { $0["before_tracking"] as? Bool } == [nil, true])
        #expect(first.reduce(0) { $0 + ($1["cost_cents"] as? Int ?? 0) } == 5370)
        let annaLiters = try #require(first[0]["fuel_l"] as? Double)
        #expect(annaLiters > 0.02 && annaLiters < 0.3, "Anna burnt \(annaLiters) L in 0.9 km")
        // At the bill's price per litre (the litres printed to 3 decimals: within a cent).
        #expect(abs((first[0]["cost_cents"] as? Int ?? -9) - Int((annaLiters * 5370 / 30).rounded())) <= 1)
        #expect(splits[1]["rule"] as? String == "ordinary")
        // The next full tank is what the driving burnt since, at the scenario's price (35.90 for 20 L).
        let split = splits[1]
        let shares = try #require(split["shares"] as? [[String: Any]])
        let liters = try #require(split["liters"] as? Double)
        let burnt = shares.reduce(0.0) { $0 + ($1["fuel_l"] as? Double ?? 0) }
        #expect(abs(liters - burnt) < 0.006, "pumped \(liters) L, burnt \(burnt) L")
        #expect(split["cost_cents"] as? Int == Int((liters * 3590 / 20).rounded()))
        #expect(shares.reduce(0) { $0 + ($1["cost_cents"] as? Int ?? 0) } == split["cost_cents"] as? Int)
        #expect(Set(shares.compactMap { $0["driver"] as? String }) == ["Anna", "Ben"])
        // So the real consumption between the two full fills is the estimate's, over all the distance driven.
        let summary = try JSONSerialization.jsonObject(with: Data(try FairFuelExecutable.run(["summary", "--json", "--db", db]).standardOutput.utf8)) as! [String: Any]
        let period = try #require((summary["full_fills"] as? [[String: Any]])?.first)
        let real = try #require(period["real_l_per_100km"] as? Double)
        let estimated = try #require(period["estimated_l_per_100km"] as? Double)
        #expect(abs(real - estimated) / estimated < 0.02, "real \(real), estimated \(estimated) L/100 km")
        #expect(real > 3 && real < 30)
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
