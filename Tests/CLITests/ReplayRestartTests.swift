import FairFuelParsers
import Foundation
import Testing
import TestSupport

/// `fairfuel replay a.ffcap b.ffcap`: each capture is one run of the service, as if it
/// restarted between them; a trip cut by the restart goes on as one trip.
@Suite struct ReplayRestartTests {
    static func temporaryDirectory() -> String {
        let directory = NSTemporaryDirectory() + "fairfuel-restart-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A store with the scenario family provisioned through the CLI.
    static func provisionedStore(in directory: String, name: String) throws -> String {
        let db = directory + "/\(name).db"
        for driver in ScenarioFamily.standard.drivers {
            var arguments = ["provision", "driver", "add", driver.name, "--tag", driver.tagUID.map { String(format: "%02X", $0) }.joined(separator: ":")]
            if let fob = driver.fob { arguments += ["--beacon", fob.identity.spec] }
            let result = try FairFuelExecutable.run(arguments + ["--db", db])
            #expect(result.exitCode == 0, "\(result.standardError)")
        }
        return db
    }

    static func trips(_ db: String) throws -> [[String: Any]] {
        let result = try FairFuelExecutable.run(["trips", "--json", "--db", db])
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as! [[String: Any]]
    }

    @Test("a drive cut by two restarts (seconds lost at each) is one trip of the right driver, within 1 % of the whole")
    func restartsMidTrip() throws {
        var options = ScenarioOptions(seed: 31)
        options.ignitionSense = false
        var world = ScenarioWorld(family: .standard, options: options)
        world.setOff(.ben)
        var random = SeededGenerator(seed: 9)
        world.drive(Route.urban(kilometers: 7, congestion: 0.2, random: &random))
        world.park(.ben, afterSeconds: 420)
        let events = world.takeEvents()
        let origin = try #require(events.first?.timeMs)
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let whole = directory + "/whole.ffcap"
        FileManager.default.createFile(atPath: whole, contents: Data(ScenarioCapture.bytes(events, originMs: origin, comment: "whole drive")))
        // Killed at 4 and 9 minutes into the drive; each restart loses 3 s of the link.
        let cuts: [Int64] = [origin + 24_000 + 240_000, origin + 24_000 + 540_000]
        var parts: [String] = []
        var from = origin
        for (index, cut) in (cuts + [Int64.max]).enumerated() {
            let path = directory + "/part-\(index).ffcap"
            let slice = events.filter { $0.timeMs >= from && $0.timeMs < cut }
            FileManager.default.createFile(atPath: path, contents: Data(ScenarioCapture.bytes(slice, originMs: origin, comment: "part \(index)")))
            parts.append(path)
            from = cut == .max ? cut : cut + 3_000
        }

        let uninterruptedDB = try Self.provisionedStore(in: directory, name: "whole")
        #expect(try FairFuelExecutable.run(["replay", whole, "--db", uninterruptedDB]).exitCode == 0)
        let restartedDB = try Self.provisionedStore(in: directory, name: "restarted")
        let replay = try FairFuelExecutable.run(["replay"] + parts + ["--db", restartedDB])
        #expect(replay.exitCode == 0, "\(replay.standardError)")
        #expect(replay.standardOutput.components(separatedBy: "replayed ").count - 1 == 3, "\(replay.standardOutput)")
        #expect(replay.standardOutput.contains("1 resumed without a tap"), "\(replay.standardOutput)")

        let reference = try #require(try Self.trips(uninterruptedDB).first)
        let restarted = try Self.trips(restartedDB)
        #expect(restarted.count == 1, "\(restarted)")
        let trip = try #require(restarted.first)
        #expect(trip["driver"] as? String == ScenarioFamily.standard[.ben].name)
        #expect(trip["end_reason"] as? String == "departed")
        let distance = try #require(trip["distance_km"] as? Double)
        let expected = try #require(reference["distance_km"] as? Double)
        #expect(abs(distance - expected) / expected < 0.01, "\(distance) km after two restarts, \(expected) km uninterrupted")
    }

    @Test("a capture replayed into a store once is refused the second time (under any name), unless --again")
    func aCaptureIsReplayedOnce() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = try Self.provisionedStore(in: directory, name: "car")
        let capture = PackagePaths.root + "/samples/drive-20s.ffcap"
        let copy = directory + "/renamed.ffcap"
        try FileManager.default.copyItem(atPath: capture, toPath: copy)
        #expect(try FairFuelExecutable.run(["replay", capture, "--db", db]).exitCode == 0)
        let once = try Self.trips(db).count
        try #require(once > 0)
        for arguments in [[capture], [copy], [directory + "/other.ffcap", copy]] {
            if arguments.count == 2 { try "# fairfuel capture v1\n".write(toFile: arguments[0], atomically: true, encoding: .utf8) }
            let again = try FairFuelExecutable.run(["replay"] + arguments + ["--db", db])
            #expect(again.exitCode == 1, "\(arguments)")
            #expect(again.standardError.contains("was replayed into this store before (run 1, replay \(capture))"), "\(again.standardError)")
            #expect(again.standardError.contains("nothing was replayed"))
            #expect(try Self.trips(db).count == once, "nothing stored twice")
        }
        // The same capture twice in one command, into a fresh store: refused before the first.
        let fresh = try Self.provisionedStore(in: directory, name: "fresh")
        let twice = try FairFuelExecutable.run(["replay", capture, copy, "--db", fresh])
        #expect(twice.exitCode == 1)
        #expect(twice.standardError.contains("is the same capture as \(capture)"), "\(twice.standardError)")
        #expect(try Self.trips(fresh).isEmpty)
        // Asked for, it is replayed again.
        #expect(try FairFuelExecutable.run(["replay", copy, "--again", "--db", db]).exitCode == 0)
        #expect(try Self.trips(db).count > once)
    }

    @Test("replay refuses a missing capture before touching the store")
    func missingCaptureChangesNothing() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/fairfuel.db"
        let result = try FairFuelExecutable.run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", directory + "/nope.ffcap", "--db", db])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("nope.ffcap"))
        #expect(!FileManager.default.fileExists(atPath: db), "no store was created")
    }
}
