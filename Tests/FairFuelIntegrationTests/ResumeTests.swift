import FairFuelReports
@testable import FairFuelSimulation
import FairFuelSQLite
import FairFuelStore
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// Issue 12's proof on real pseudo-terminals: a trip survives a killed service, an MCU
    /// brown-out, a pulled cable and a kiosk queue; a park after which only a passenger's
    /// fob is in the car leaves the driving untracked, with candidates.
    @Suite struct ResumeTests {
        /// The kill test's speed: while `run` restarts (about 0.3 s) the sim queues what it
        /// cannot send, up to its 16 KiB transmit buffer (about 30 simulated seconds of traffic).
        static let killSpeed = 50.0
        /// The other tests kill nothing.
        static let speed = 100.0
        /// How far a resumed trip may be from the uninterrupted one.
        static let distanceTolerance = 0.01

        /// resume-drive.scenario's trip played without interruption, once for the suite.
        static let reference = Mutex<TripFigures?>(nil)

        static func referenceTrip() throws -> TripFigures {
            if let known = reference.withLock({ $0 }) { return known }
            var trip: TripFigures?
            try IntegrationTests.withRig("resume-drive.scenario") { rig in
                let sim = try rig.startSim(speed: speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.startRun()
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                try LinkFaultTests.finish(rig, run)
                let trips = try rig.trips()
                #expect(trips.count == 1, "the uninterrupted drive is one trip: \(trips.map(\.json))")
                trip = trips.first.map(TripFigures.init)
                print("resume reference: \(trips.map(\.json)); planned \(rig.plan.trips[0].distanceMeters) m")
            }
            guard let trip else { throw IntegrationRig.Failure(description: "no reference trip") }
            reference.withLock { $0 = trip }
            return trip
        }

        @Test func sigkillOfRunWhileMovingAtALightAndAtTheKioskKeepsOneTrip() throws {
            let referenceTrip = try Self.referenceTrip()
            let reference = referenceTrip.distanceKilometers
            try IntegrationTests.withRig("resume-drive.scenario") { rig in
                let plan = rig.plan
                let trip = plan.trips[0]
                let stops = try #require(plan.drives.first?.stops.filter { $0.scriptedIndex != nil })
                try #require(stops.count == 2, "a light and a fuel stop: \(stops)")
                let refuel = try #require(plan.refuels.first)
                let moments: [(what: String, simMs: Int64)] = [
                    ("moving", trip.startMs + 60_000),
                    ("at the red light", stops[0].startMs + 15_000),
                    ("with Anna at the kiosk", refuel.timeMs + 40_000),
                ]
                #expect(moments[0].simMs < stops[0].startMs - 10_000, "the first kill is before the light")

                let sim = try rig.startSim(speed: Self.killSpeed, idleSpeed: IntegrationTests.idleSpeed)
                var run = try rig.startRun()
                let clock = try SimClock(sim: sim, rig: rig, speed: Self.killSpeed, anchor: "moving off", anchorMs: trip.startMs)
                var restartsMs: [Double] = []
                for moment in moments {
                    try clock.wait(until: moment.simMs, rig: rig)
                    run.killGroup()
                    #expect(run.poll() == .signalled(SIGKILL), "killed \(moment.what)")
                    let killed = ContinuousClock.now
                    run = try rig.startRun()
                    restartsMs.append((ContinuousClock.now - killed).milliseconds)
                }
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                #expect(sim.poll() == .exited(0))
                try LinkFaultTests.finish(rig, run)

                let trips = try rig.trips()
                print("kills (\(moments.map(\.what).joined(separator: ", "))), restarts took \(restartsMs.map { Int($0) }) ms real "
                    + "(\(restartsMs.map { Int($0 * Self.killSpeed / 1000) }) simulated s): \(trips.map(\.json)); reference \(reference) km")
                #expect(trips.count == 1, "three kills must not split the trip: \(trips.map(\.json))")
                let resumed = try #require(trips.first)
                #expect(resumed.driver == "Anna")
                #expect(resumed.endReason == "departed", "\(resumed.json)")
                Self.expectClose(resumed.distanceKilometers, to: reference)
                // The trip's fuel and driving record are whole too: a restart loses a few seconds
                // of fixes, never minutes of fuel, and fakes no harsh event.
                Self.expectSameRecord(resumed, as: referenceTrip, fuelTolerance: 0.02)
                let store = try rig.openStore()
                if let count = try Self.resumedCount(store, session: resumed.id) {
                    #expect(count >= moments.count, "resumed_count \(count) after \(moments.count) kills")
                }
                #expect(try rig.untrackedMeters() < 50, "nothing of Anna's drive is untracked")
            }
        }

        @Test func brownOutAndA30SecondUnplugMidTripKeepOneTrip() throws {
            let referenceTrip = try Self.referenceTrip()
            let reference = referenceTrip.distanceKilometers
            try IntegrationTests.withRig("resume-faults.scenario") { rig in
                let sim = try rig.startSim(speed: Self.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.startRun()
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                #expect(sim.poll() == .exited(0))
                let status = try #require(rig.status())
                #expect(status.mcuReboots >= 2, "a brown-out and a replug: \(status.json)")
                try LinkFaultTests.finish(rig, run)

                let trips = try rig.trips()
                print("brown-out and unplug 30 s: \(trips.map(\.json)); reference \(reference) km")
                #expect(trips.count == 1, "\(trips.map(\.json))")
                let trip = try #require(trips.first)
                #expect(trip.driver == "Anna")
                #expect(trip.endReason == "departed", "\(trip.json)")
                Self.expectClose(trip.distanceKilometers, to: reference)
                // 30 s without fixes or fuel samples: about 2 % of the trip's fuel may be missing.
                Self.expectSameRecord(trip, as: referenceTrip, fuelTolerance: 0.03)
                #expect(try rig.untrackedMeters() < 50)
            }
        }

        @Test func aKioskQueueKeepsTheTripAndAParkWithOnlyAPassengersFobIsUntrackedWithCandidates() throws {
            try IntegrationTests.withRig("kiosk-and-park.scenario") { rig in
                let sim = try rig.startSim(speed: Self.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.startRun()
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                #expect(sim.poll() == .exited(0))
                try LinkFaultTests.finish(rig, run)

                let planned = rig.plan.trips
                let trips = try rig.trips()
                let store = try rig.openStore()
                let drivers = Dictionary(uniqueKeysWithValues: try store.connection.query("SELECT name, id FROM drivers") { ($0.text(0) ?? "", $0.int(1)) })
                let columns = try store.connection.query("PRAGMA table_info(untracked_driving)") { $0.text(1) ?? "" }
                #expect(columns.contains("candidate_driver_ids"), "the store records no candidates for untracked driving")
                let candidatesColumn = columns.contains("candidate_driver_ids") ? "candidate_driver_ids" : "NULL"
                let untracked = try store.connection.query("SELECT distance_m, \(candidatesColumn) FROM untracked_driving") {
                    (meters: $0.double(0), candidates: $0.text(1))
                }
                print("kiosk queue and park: \(trips.map(\.json)); untracked \(untracked); planned \(planned.map(\.distanceMeters)) m")

                // 12 minutes out of range at the kiosk, no new tap: the rest of the drive is Anna's.
                let anna = trips.filter { $0.driver == "Anna" }
                #expect(anna.count == 1, "Anna's drive is one trip: \(anna.map(\.json))")
                if let trip = anna.first {
                    LinkFaultTests.expectDistance(trip, plannedMeters: planned[0].distanceMeters, tolerance: 0.05)
                }
                // After the park only Anna's fob is in the car and Cara has none: neither gets the driving on.
                let cara = trips.filter { $0.driver == "Cara" }
                #expect(cara.count == 1, "\(cara.map(\.json))")
                if let trip = cara.first {
                    let plannedKilometers = planned[1].distanceMeters / 1000
                    #expect(trip.distanceKilometers < plannedKilometers * 0.7, "Cara's trip ends at the park: \(trip.json)")
                }
                #expect(trips.count == 2, "no session after the park: \(trips.map(\.json))")
                // The service may write the drive on as several stretches (it stands at lights);
                // all of it is untracked and each stretch names both candidates.
                let untrackedMeters = untracked.reduce(0) { $0 + $1.meters }
                #expect(untrackedMeters > planned[1].distanceMeters * 0.3, "the drive after the park is untracked: \(untracked)")
                let expected = Set([drivers["Anna"], drivers["Cara"]].compactMap { $0 })
                for stretch in untracked where stretch.meters > 50 {
                    let candidates = Set((stretch.candidates ?? "").split(separator: ",").compactMap { Int($0) })
                    #expect(candidates == expected, "candidates \(stretch.candidates ?? "none") for drivers \(drivers)")
                }
            }
        }

        static func expectClose(_ kilometers: Double, to reference: Double, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(abs(kilometers - reference) <= reference * distanceTolerance,
                    "\(kilometers) km against \(reference) km uninterrupted (±\(distanceTolerance * 100) %)", sourceLocation: sourceLocation)
        }

        /// Fuel within `fuelTolerance` of the reference; the same harsh events; idle time within a minute.
        static func expectSameRecord(_ row: TripRow, as reference: TripFigures, fuelTolerance: Double, sourceLocation: SourceLocation = #_sourceLocation) {
            let trip = TripFigures(row)
            #expect(abs(trip.fuelLiters - reference.fuelLiters) <= reference.fuelLiters * fuelTolerance,
                    "\(trip.fuelLiters) L against \(reference.fuelLiters) L uninterrupted (±\(fuelTolerance * 100) %)", sourceLocation: sourceLocation)
            #expect(trip.harshAccelerations == reference.harshAccelerations && trip.harshBrakings == reference.harshBrakings,
                    "harsh \(trip.harshAccelerations)/\(trip.harshBrakings) against \(reference.harshAccelerations)/\(reference.harshBrakings) uninterrupted",
                    sourceLocation: sourceLocation)
            // Idle time across a restart: the seconds after each restart count neither as idle nor
            // as moving, and a restart during a stop counts its standing as the uninterrupted
            // service does only to within the departure wait's fixes (StopRestartReplayTests
            // measures each moment exactly): a minute and a half for three kills.
            #expect(abs(trip.idleSeconds - reference.idleSeconds) <= 90,
                    "idle \(trip.idleSeconds) s against \(reference.idleSeconds) s uninterrupted", sourceLocation: sourceLocation)
            #expect(abs(trip.movingSeconds - reference.movingSeconds) <= 30,
                    "moving \(trip.movingSeconds) s against \(reference.movingSeconds) s uninterrupted", sourceLocation: sourceLocation)
        }

        /// The session's `resumed_count`; nil while the store has no such column.
        static func resumedCount(_ store: TripStore, session: Int) throws -> Int? {
            let columns = try store.connection.query("PRAGMA table_info(sessions)") { $0.text(1) ?? "" }
            guard columns.contains("resumed_count") else { return nil }
            return try store.connection.query("SELECT resumed_count FROM sessions WHERE id = ?", .integer(Int64(session))) { $0.int(0) }.first
        }
    }
}

/// What the resume tests compare between a trip and the uninterrupted one.
struct TripFigures: Sendable {
    var distanceKilometers: Double
    var fuelLiters: Double
    var harshAccelerations: Int
    var harshBrakings: Int
    var idleSeconds: Int
    var movingSeconds: Int

    init(_ row: TripRow) {
        distanceKilometers = row.distanceKilometers
        fuelLiters = row.json["fuel_l"] as? Double ?? -1
        harshAccelerations = row.json["harsh_accel"] as? Int ?? -1
        harshBrakings = row.json["harsh_brake"] as? Int ?? -1
        idleSeconds = row.json["idle_s"] as? Int ?? -1
        movingSeconds = row.json["moving_s"] as? Int ?? -1
    }
}

/// The sim's simulated time, estimated from real time: anchored when the sim prints a
/// line (its events are printed as they happen), then advancing at the sim's speed.
struct SimClock {
    let anchorMs: Int64
    let anchorReal: ContinuousClock.Instant
    let speed: Double

    init(sim: ChildProcess, rig: IntegrationRig, speed: Double, anchor: String, anchorMs: Int64) throws {
        try rig.waitUntil("the sim prints '\(anchor)'", seconds: IntegrationTests.patience) {
            sim.standardOutput.contains(anchor)
        }
        self.anchorMs = anchorMs
        anchorReal = ContinuousClock.now
        self.speed = speed
    }

    var nowMs: Int64 { anchorMs + Int64((ContinuousClock.now - anchorReal).milliseconds * speed) }

    func wait(until simMs: Int64, rig: IntegrationRig) throws {
        try rig.waitUntil("simulated \(simMs) ms", seconds: IntegrationTests.patience) {
            let left = Double(simMs - nowMs) / speed
            if left > 60 { usleep(useconds_t(min(left - 50, 40_000) * 1000)) }
            return nowMs >= simMs
        }
    }
}

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
