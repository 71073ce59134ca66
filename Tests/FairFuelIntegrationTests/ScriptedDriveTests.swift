import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// The whole path, process to process: two drivers' trips whose sessions start with a
    /// tap and end by the rules (fob gone 90 s, car standing 180 s) inside `fairfuel run`.
    @Suite struct ScriptedDriveTests {
        @Test func twoDriversTripsMatchThePlan() throws {
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.startRun()
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                #expect(sim.poll() == .exited(0))
                let status = try #require(rig.status())
                #expect(status.sessionState == "IDLE", "both sessions should have ended by the rules: \(status.json)")
                #expect(status.firmware == "1.4.2")
                #expect(status.utcKnown)
                // FEEDBACK for each tap and each session start and end reached the MCU.
                let summary = try #require(SimSummary(output: sim.standardOutput))
                #expect(status.linkErrors == 0 && status.frames("lost") <= summary.framesDropped, "a clean line: \(status.json)")
                #expect(summary.feedback >= 4, "FEEDBACK patterns played: \(summary.feedback)")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
                #expect(try rig.storeProblems() == nil)

                let trips = try rig.trips()
                let planned = rig.plan.trips
                print("scripted drive: \(trips.map(\.json)); planned \(planned.map { ($0.drivers, $0.distanceMeters) })")
                #expect(status.mcuReboots == 0)
                #expect(trips.map(\.driver) == planned.map { $0.drivers.first }, "\(trips.map(\.json))")
                for (trip, plan) in zip(trips, planned) {
                    #expect(trip.endReason == "departed", "trip \(trip.id): \(trip.json)")
                    LinkFaultTests.expectDistance(trip, plannedMeters: plan.distanceMeters, tolerance: 0.10)
                    // The tap comes 14 s before moving off; the session ends after the car has
                    // stood 180 s and the fob has been gone 90 s, plus a 10 s cooldown.
                    let start = try #require(IntegrationTests.utcMilliseconds(trip.startUTC))
                    let end = try #require(IntegrationTests.utcMilliseconds(trip.endUTC))
                    let movedOff = plan.startUTC.millisecondsSinceEpoch
                    let parked = plan.endUTC.millisecondsSinceEpoch
                    #expect(start >= movedOff - 30_000 && start <= movedOff, "session start \(trip.startUTC ?? "?") vs moving off \(plan.startUTC.iso8601)")
                    #expect(end >= parked + 150_000 && end <= parked + 300_000, "session end \(trip.endUTC ?? "?") vs parked \(plan.endUTC.iso8601)")
                }
            }
        }
    }
}
