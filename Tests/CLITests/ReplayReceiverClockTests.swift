import Foundation
import Testing
import TestSupport

/// `fairfuel replay` of captures whose receiver clock disagrees with the capture's: one recorded
/// from a sped-up simulator (the receiver's times, positions and the MCU's stamps move at the
/// simulated pace, the capture's clock at the recorder's: the MCU's stamps are the replay's time,
/// so the trips keep their pace), and one whose receiver jumps back for a few epochs (bad epochs).
@Suite struct ReplayReceiverClockTests {
    /// Ben's 3 km across town and a park, captured with capture time running `speedUp` times
    /// slower than the drive (the NMEA inside keeps its 1 Hz UTC); `receiverJumpMs`: the
    /// receiver's clock is that far off for the four epochs up to Ben's tap.
    static func capture(speedUp: Int64, receiverJumpMs: Int64 = 0, in directory: String) throws -> String {
        var world = ScenarioWorld(family: .standard, options: ScenarioOptions(seed: 5))
        // The receiver has its fix (and link time its UTC) well before Ben taps in.
        world.board(.ben)
        world.ignitionOn()
        world.wait(seconds: 60)
        world.tap(.ben)
        world.wait(seconds: 20)
        world.town(kilometers: 3, seed: 8)
        world.park(.ben)
        var events = world.takeEvents()
        let origin = try #require(events.first?.timeMs)
        let tapMs = try #require(events.first { if case .tag = $0.signal { true } else { false } }?.timeMs)
        for index in events.indices {
            if case var .epoch(epoch) = events[index].signal, (tapMs - 3_500)...tapMs ~= events[index].timeMs {
                epoch.utcMs += receiverJumpMs
                events[index].signal = .epoch(epoch)
            }
            events[index].timeMs = origin + (events[index].timeMs - origin) / speedUp
        }
        let path = directory + "/drive-\(speedUp)x-\(receiverJumpMs).ffcap"
        let bytes = ScenarioCapture.bytes(events, originMs: origin, comment: "Ben's drive recorded at \(speedUp)x")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    /// The one session of the store: Ben's.
    static func bensTrip(_ db: String) throws -> [String: Any]? {
        let sessions = try ReplayRestartTests.trips(db).filter { $0["id"] is Int }
        #expect(sessions.count == 1 && sessions.first?["driver"] as? String == ScenarioFamily.standard[.ben].name, "\(sessions)")
        return sessions.first
    }

    /// A virtual MCU stamps its frames with simulated time: replayed through the service's core,
    /// whose domain time is the MCU's clock (`LinkClock`), the drive keeps its own pace however
    /// fast the capture's clock ran, as in the live service.
    @Test("a drive recorded at 20x from a simulator replays at the MCU's pace: the same trip as at 1x, no speed warning")
    func spedUpSimulatorKeepsItsPace() throws {
        let directory = ReplayRestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var trips: [[String: Any]] = []
        for speedUp: Int64 in [1, 20] {
            let db = try ReplayRestartTests.provisionedStore(in: directory, name: "speed\(speedUp)")
            let replay = try FairFuelExecutable.run(["replay", try Self.capture(speedUp: speedUp, in: directory), "--db", db])
            #expect(replay.exitCode == 0, "\(replay.standardError)")
            #expect(replay.standardOutput.contains("1 session(s) started"), "\(replay.standardOutput)")
            #expect(!replay.standardError.contains("speeds no car reaches"), "\(replay.standardError)")
            trips.append(try #require(try Self.bensTrip(db)))
        }
        let (steady, spedUp) = (trips[0], trips[1])
        #expect(spedUp["start_utc"] as? String == steady["start_utc"] as? String, "\(spedUp) vs \(steady)")
        #expect(spedUp["duration_s"] as? Int == steady["duration_s"] as? Int)
        let (distance, reference) = (try #require(spedUp["distance_km"] as? Double), try #require(steady["distance_km"] as? Double))
        #expect(distance > 2.5 && abs(distance - reference) < 0.05, "\(distance) km, \(reference) km at 1x")
    }

    @Test("a receiver two hours back for the four epochs up to the tap: the trip keeps its start and length, the bad epochs are named")
    func receiverJumpAroundTheTap() throws {
        let directory = ReplayRestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var trips: [[String: Any]] = []
        for jumpMs: Int64 in [0, -7_200_000] {
            let db = try ReplayRestartTests.provisionedStore(in: directory, name: "jump\(jumpMs)")
            let replay = try FairFuelExecutable.run(["replay", try Self.capture(speedUp: 1, receiverJumpMs: jumpMs, in: directory), "--db", db])
            #expect(replay.exitCode == 0, "\(replay.standardError)")
            #expect(replay.standardOutput.contains("4 fix(es) whose receiver time jumped") == (jumpMs != 0), "\(replay.standardOutput)")
            // Ben's session (the engine idling before his tap is untracked, beside it).
            trips.append(try #require(try Self.bensTrip(db)))
        }
        let (steady, jumped) = (trips[0], trips[1])
        #expect(jumped["start_utc"] as? String == steady["start_utc"] as? String, "\(jumped) vs \(steady)")
        #expect(jumped["end_utc"] as? String == steady["end_utc"] as? String)
        #expect(jumped["duration_s"] as? Int == steady["duration_s"] as? Int)
        let (distance, reference) = (try #require(jumped["distance_km"] as? Double), try #require(steady["distance_km"] as? Double))
        #expect(abs(distance - reference) < 0.05, "\(distance) km, \(reference) km without the jump")
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
