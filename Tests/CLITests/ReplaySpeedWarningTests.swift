import Foundation
import Testing
import TestSupport

/// `fairfuel replay` of a capture recorded from a sped-up simulator: the receiver's times
/// and positions move at the simulated pace, the capture's clock at the recorder's, so the
/// trips come out faster than any car. The replay completes and says so.
@Suite struct ReplaySpeedWarningTests {
    /// Ben's 3 km across town and a park, captured with capture time running `speedUp` times
    /// slower than the drive (the NMEA inside keeps its 1 Hz UTC).
    static func capture(speedUp: Int64, in directory: String) throws -> String {
        var world = ScenarioWorld(family: .standard, options: ScenarioOptions(seed: 5))
        world.setOff(.ben)
        world.town(kilometers: 3, seed: 8)
        world.park(.ben)
        var events = world.takeEvents()
        let origin = try #require(events.first?.timeMs)
        for index in events.indices { events[index].timeMs = origin + (events[index].timeMs - origin) / speedUp }
        let path = directory + "/sped-up-\(speedUp).ffcap"
        let bytes = ScenarioCapture.bytes(events, originMs: origin, comment: "Ben's drive recorded at \(speedUp)x")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test("a drive recorded at 20x replays with a warning of the speeds, and the replay completes")
    func spedUpSimulatorIsNamed() throws {
        let directory = ReplayRestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = try ReplayRestartTests.provisionedStore(in: directory, name: "sped-up")
        let replay = try FairFuelExecutable.run(["replay", try Self.capture(speedUp: 20, in: directory), "--db", db])
        #expect(replay.exitCode == 0, "\(replay.standardError)")
        #expect(replay.standardOutput.contains("1 session(s) started"), "\(replay.standardOutput)")
        #expect(replay.standardError.contains("warning:"), "\(replay.standardError)")
        #expect(replay.standardError.contains("speeds no car reaches"), "\(replay.standardError)")
        #expect(replay.standardError.contains("recorded from a simulator running faster than real time"))
        // The replay stands: Ben's trip is stored with its distance; the warning only judges it.
        let trips = try ReplayRestartTests.trips(db)
        let trip = try #require(trips.first)
        #expect(trip["driver"] as? String == ScenarioFamily.standard[.ben].name)
        let kilometers = try #require(trip["distance_km"] as? Double)
        #expect(kilometers > 2.5, "\(trips)")
    }

    @Test("control: the same drive at its own pace replays without a warning")
    func realTimeDriveIsQuiet() throws {
        let directory = ReplayRestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = try ReplayRestartTests.provisionedStore(in: directory, name: "real-time")
        let replay = try FairFuelExecutable.run(["replay", try Self.capture(speedUp: 1, in: directory), "--db", db])
        #expect(replay.exitCode == 0, "\(replay.standardError)")
        #expect(!replay.standardError.contains("warning"), "\(replay.standardError)")
        #expect(!replay.standardOutput.contains("bad epochs"), "\(replay.standardOutput)")
    }
}
