import FairFuelStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// SIGTERM and SIGKILL in the middle of a trip.
    @Suite struct ServiceLifecycleTests {
        /// Trip points are flushed every 10 s of link time (the board profile); a SIGKILL may lose
        /// at most that window: 10 s at up to 20 m/s, plus a second of the 1 Hz point rate.
        static let flushWindowMeters = 220.0

        @Test func sigtermMidTripExitsCleanlyWithinTwoSecondsAndFlushesTheOpenTrip() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                // Points wait up to a simulated minute in memory: only the shutdown's flush saves them.
                let run = try rig.startRun(extra: ["--board", try IntegrationRig.fixturePath("slow-flush-board.toml")])
                try rig.waitUntil("Anna's session past 1 km", seconds: IntegrationTests.patience) {
                    let status = rig.status()
                    return status?.driver == "Anna" && (status?.sessionKilometers ?? 0) >= 1.0
                }
                // Freeze the MCU so that the status below is the service's last word on the trip.
                sim.send(SIGSTOP)
                usleep(200_000)
                let before = try #require(rig.status())

                let (ending, seconds) = run.stop(with: SIGTERM)
                print("sigterm: exit after \(Int(seconds * 1000)) ms; before: \(before.json)")
                #expect(ending == .exited(0), "run ended with \(ending.map(\.description) ?? "nothing") after SIGTERM")
                #expect(seconds < 2.0, "SIGTERM took \(seconds) s")

                // The log's count of written points is what the store holds.
                let log = run.standardError
                let written = try #require(Self.pointsWritten(in: log), "no 'service stopped' line in:\n\(log)")
                #expect(written >= before.tripPointsWritten)
                let store = try rig.openStore()
                let sessions = try store.sessions()
                #expect(sessions.count == 1)
                let session = try #require(sessions.first)
                #expect(session.driverName == "Anna")
                let points = try store.tripPoints(session: session.id)
                #expect(points.count == written)
                // The stored track reaches where the trip was (1 Hz points: within a second of driving),
                // not where the last periodic flush left it (up to 100 points behind with this board):
                // the buffer was flushed on the way out.
                let lastDistance = points.map(\.distanceMeters).max() ?? 0
                #expect(lastDistance >= (before.sessionKilometers ?? 0) * 1000 - 20,
                        "stored track ends at \(lastDistance) m; status said \(before.sessionKilometers ?? 0) km before SIGTERM")
                #expect(try rig.storeProblems() == nil)
            }
        }

        @Test func sigkillMidTripLosesNothingAcknowledgedAndTheRestartCarriesOn() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let first = try rig.startRun()
                try rig.waitUntil("Anna's session past 1 km with points written", seconds: IntegrationTests.patience) {
                    let status = rig.status()
                    return status?.driver == "Anna" && (status?.sessionKilometers ?? 0) >= 1.0 && (status?.tripPointsWritten ?? 0) > 0
                }
                // Freeze the MCU so that the status below is the service's last word before the kill.
                sim.send(SIGSTOP)
                usleep(200_000)
                let before = try #require(rig.status())
                first.killGroup()
                #expect(first.poll() == .signalled(SIGKILL))

                // The store is whole, and holds every point the service had reported written.
                #expect(try rig.storeProblems() == nil)
                do {
                    let store = try rig.openStore()
                    let sessions = try store.sessions()
                    #expect(sessions.count == 1)
                    let session = try #require(sessions.first)
                    #expect(session.driverName == "Anna")
                    #expect(session.endReason == nil, "the killed service cannot have closed the session")
                    let points = try store.tripPoints(session: session.id)
                    #expect(points.count >= before.tripPointsWritten)
                    let lastDistance = points.map(\.distanceMeters).max() ?? 0
                    #expect(lastDistance >= (before.sessionKilometers ?? 0) * 1000 - Self.flushWindowMeters,
                            "stored track ends at \(lastDistance) m; status said \(before.sessionKilometers ?? 0) km before SIGKILL")
                }

                // The restart finds the open session and, with Anna's fob in the car and the
                // receiver saying little time passed, the trip goes on (continuity rules).
                let second = try rig.startRun()
                sim.send(SIGCONT)
                try rig.waitUntil("the restarted service hears the MCU", seconds: IntegrationTests.patience) {
                    guard let status = rig.status() else { return false }
                    return status.linkUp && status.frames("frames") > 0
                }
                #expect(second.standardError.contains("was open when the service stopped"))
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                second.send(SIGTERM)
                #expect(second.wait(seconds: 5) == .exited(0))
                #expect(second.standardError.contains("session resumed without a tap"), "\(second.standardError)")

                let trips = try rig.trips()
                #expect(trips.count == 1, "\(trips.map(\.json))")
                let resumed = try #require(trips.first)
                #expect(resumed.driver == "Anna")
                #expect(resumed.endReason != "power_loss")
                // One trip, whole: only the stretch driven while no service ran is bridged by a straight line.
                let planned = rig.plan.trips[0].distanceMeters
                let untracked = try rig.untrackedMeters()
                print("sigkill: \(before.json); resumed trip \(resumed.distanceKilometers) km, untracked \(untracked) m, planned \(planned) m")
                #expect(untracked < 100, "the drive after the restart went untracked")
                #expect(resumed.distanceKilometers * 1000 >= planned * 0.8 && resumed.distanceKilometers * 1000 <= planned * 1.1,
                        "resumed \(resumed.distanceKilometers) km vs planned \(planned) m")
                #expect(try rig.storeProblems() == nil)
            }
        }

        /// `service stopped: N trip points written` from the service's log.
        static func pointsWritten(in log: String) -> Int? {
            guard let line = log.split(separator: "\n").last(where: { $0.contains("service stopped:") }),
                  let range = line.range(of: "service stopped: ")
            else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }
}
