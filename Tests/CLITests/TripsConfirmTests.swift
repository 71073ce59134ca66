import Foundation
import Testing
import TestSupport

/// Untracked driving after a park, with the last driver's fob gone and a passenger's aboard:
/// listed with its candidates, and confirmed with one command.
@Suite struct TripsConfirmTests {
    @Test("candidates show in trips and one command gives the drive to the one who drove")
    func candidatesAreListedAndConfirmed() throws {
        var options = ScenarioOptions(seed: 44)
        options.ignitionSense = false
        var world = ScenarioWorld(family: .standard, options: options)
        world.setOff(.ben)
        var random = SeededGenerator(seed: 5)
        world.drive(Route.urban(kilometers: 3, congestion: 0, random: &random))
        world.park(.ben, afterSeconds: 600)
        // Ana drives off without tapping; Ben's fob is not in the car.
        world.board(.ana, tapping: false)
        world.ignitionOn()
        world.wait(seconds: 8)
        world.drive(Route.urban(kilometers: 3, congestion: 0, random: &random))
        world.park(.ana, afterSeconds: 300)
        let events = world.takeEvents()
        let directory = ReplayRestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let capture = directory + "/park.ffcap"
        FileManager.default.createFile(
            atPath: capture, contents: Data(ScenarioCapture.bytes(events, originMs: events.first?.timeMs ?? 0, comment: "park")))
        let db = try ReplayRestartTests.provisionedStore(in: directory, name: "park")
        #expect(try FairFuelExecutable.run(["replay", capture, "--db", db]).exitCode == 0)

        let ben = ScenarioFamily.standard[.ben].name, ana = ScenarioFamily.standard[.ana].name, cleo = ScenarioFamily.standard[.cleo].name
        let trips = try ReplayRestartTests.trips(db)
        #expect(trips.filter { $0["driver"] is String }.count == 1, "Ben's trip only: nobody is given the drive after the park")
        let drive = try #require(trips.filter { $0["driver"] is NSNull }.max { ($0["distance_km"] as? Double ?? 0) < ($1["distance_km"] as? Double ?? 0) })
        let candidates = try #require(drive["candidates"] as? [String])
        #expect(Set(candidates) == [ben, ana], "\(candidates)")
        let id = try #require(drive["id"] as? String)
        let table = try FairFuelExecutable.run(["trips", "--db", db]).standardOutput
        #expect(table.contains("candidates: "), "\(table)")

        let ambiguous = try FairFuelExecutable.run(["trips", "confirm", id, "--db", db])
        #expect(ambiguous.exitCode != 0 && ambiguous.standardError.contains("2 candidates"), "\(ambiguous.standardError)")
        let stranger = try FairFuelExecutable.run(["trips", "confirm", id, cleo, "--db", db])
        #expect(stranger.exitCode != 0 && stranger.standardError.contains("not a candidate"), "\(stranger.standardError)")
        #expect(try ReplayRestartTests.trips(db).count == trips.count, "refusals change nothing")

        let confirmed = try FairFuelExecutable.run(["trips", "confirm", id, ana.lowercased(), "--db", db])
        #expect(confirmed.exitCode == 0, "\(confirmed.standardError)")
        let after = try ReplayRestartTests.trips(db)
        let anas = after.filter { $0["driver"] as? String == ana }
        #expect(anas.count == 1 && (anas.first?["end_reason"] as? String) == "assigned")
        #expect(abs((anas.first?["distance_km"] as? Double ?? 0) - (drive["distance_km"] as? Double ?? -1)) < 0.001)
    }
}
