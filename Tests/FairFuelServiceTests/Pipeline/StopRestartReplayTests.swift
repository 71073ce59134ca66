import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelService
@testable import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelStore
import Foundation
import ReplaySupport
import Testing
import TestSupport

/// A restart that cuts a stop in two measures the trip as the uninterrupted service does: the
/// virtual MCU plays a scenario on simulated time into `Replay`, once whole and once as
/// separate service runs on one store (the killed run's last seconds of link traffic lost),
/// and the trips must agree in distance, fuel, moving and idle time.
///
/// The pseudo-terminal tests (`ResumeTests`) kill real processes at the same moments; this one
/// runs in a second, on exactly repeatable time, and can ask for the same figures to the second.
@Suite struct StopRestartReplayTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../FairFuelIntegrationTests/Fixtures").standardizedFileURL.path

    /// One link read: the bytes the MCU sent at a simulated time.
    struct Read {
        var timeMs: Int64
        var bytes: [UInt8]
        var isHello = false
    }

    /// The scenario's link traffic until `endMs`, as the MCU sends it (nothing sent back: a
    /// replay's host answers nothing either).
    static func traffic(_ plan: SimPlan, untilMs endMs: Int64) -> [Read] {
        var mcu = VirtualMCUCore(plan: plan)
        var reads: [Read] = []
        var outputs: [VirtualMCUCore.Output] = []
        var now: Int64 = 0
        while now < endMs {
            now = min(max(now + 1, mcu.nextEventTime), endMs)
            mcu.advance(to: now, into: &outputs)
            for output in outputs {
                if case let .bytes(bytes, type) = output {
                    reads.append(Read(timeMs: now, bytes: bytes, isHello: type == FrameType.hello.rawValue))
                }
            }
            outputs.removeAll(keepingCapacity: true)
        }
        return reads
    }

    /// Replays `reads` as one service run per part, cut at `cutsMs` (each losing `lostMs` of
    /// traffic, as a killed process does; `ServiceRestarts.parts`).
    static func replay(_ reads: [Read], cutsMs: [Int64], lostMs: Int64, into store: TripStore) throws {
        let parts = ServiceRestarts.parts(
            of: reads, cuts: cutsMs.map { ServiceRestarts.Cut(atMs: $0, lostMs: lostMs) }, timeMs: \.timeMs, isHello: \.isHello
        ) { read, timeMs in
            var retimed = read
            retimed.timeMs = timeMs
            return retimed
        }
        for (index, part) in parts.enumerated() {
            _ = try Replay(capturePath: "-", store: store).run(note: "part \(index + 1)") { feed in
                for read in part { feed(UInt64(read.timeMs), read.bytes[...]) }
            }
        }
    }

    static func store(for plan: SimPlan) throws -> (TripStore, String) {
        let path = NSTemporaryDirectory() + "fairfuel-stop-restart-\(UUID().uuidString).db"
        let store = try TripStore(path: path)
        for driver in plan.scenario.drivers {
            let tags = try plan.tag(ofDriver: driver.name).map { [TagIdentity.uid(try TagUID(bytes: $0.uid[...]))] } ?? []
            _ = try store.addDriver(name: driver.name, tags: tags, beacons: driver.beacon.map { [$0] } ?? [])
        }
        return (store, path)
    }

    static func trips(_ reads: [Read], plan: SimPlan, cutsMs: [Int64], lostMs: Int64 = 3_000) throws -> [StoredSession] {
        let (store, path) = try store(for: plan)
        defer { for suffix in ["", "-wal", "-shm", "-reserve"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try replay(reads, cutsMs: cutsMs, lostMs: lostMs, into: store)
        return try store.sessions()
    }

    /// Kills at every moment of resume-drive.scenario's trip, one at a time and all in one
    /// drive: moving, at the red light, at the kiosk before the stop ended the session, at the
    /// kiosk after, and driving on after the stop (the session reopened: a restart then must
    /// not count the stop as idle time, which the uninterrupted trip does not).
    @Test func restartsAnywhereInATripWithAFuelStopMeasureItAsTheUninterruptedService() throws {
        let plan = try SimPlanner.plan(try SimScenarioParser.load(path: Self.fixtures + "/resume-drive.scenario"))
        let reads = Self.traffic(plan, untilMs: plan.endMs + 300_000)
        let stops = try #require(plan.drives.first?.stops.filter { $0.scriptedIndex != nil })
        try #require(stops.count == 2, "a light and a fuel stop: \(stops)")
        let fuelStop = stops[1]
        let moments: [(what: String, atMs: Int64)] = [
            ("moving", plan.trips[0].startMs + 60_000),
            ("at the red light", stops[0].startMs + 15_000),
            ("at the kiosk, the session still open", fuelStop.startMs + 60_000),
            ("at the kiosk, the session ended", fuelStop.endMs - 60_000),
            ("driving on after the fuel stop", fuelStop.endMs + 60_000),
        ]
        let whole = try Self.trips(reads, plan: plan, cutsMs: [])
        try #require(whole.count == 1, "the uninterrupted drive is one trip: \(whole)")
        let reference = whole[0]
        #expect(reference.resumedCount == 1, "the uninterrupted trip goes on after the fuel stop")
        let combos = moments.map { [$0] } + [moments]
        for cuts in combos {
            let what = cuts.map(\.what).joined(separator: ", ")
            let trips = try Self.trips(reads, plan: plan, cutsMs: cuts.map(\.atMs))
            guard trips.count == 1, let trip = trips.first else {
                Issue.record("killed \(what): \(trips.count) trips: \(trips)")
                continue
            }
            print("killed \(what): idle \(trip.idleMs / 1000) s, moving \(trip.movingMs / 1000) s, fuel \(trip.fuelLiters) L, "
                + "resumed \(trip.resumedCount); uninterrupted idle \(reference.idleMs / 1000) s, moving \(reference.movingMs / 1000) s, "
                + "fuel \(reference.fuelLiters) L")
            // Each restart loses 3 s of traffic, and the first seconds after it count neither as
            // idle nor as moving. A second restart within one stop also loses the standing time
            // the first restarted service measured while it waited (it is not stored): up to the
            // GNSS keep-alive, a minute here.
            let twoInOneStop = cuts.count == moments.count
            let idleTolerance: Int64 = Int64(cuts.count) * 10_000 + (twoInOneStop ? 60_000 : 0)
            #expect(trip.driverName == "Anna" && trip.endReason == .departed, "killed \(what)")
            #expect(trip.resumedCount >= 1, "killed \(what): the trip went on without a tap")
            #expect(abs(trip.distanceMeters - reference.distanceMeters) <= reference.distanceMeters * 0.01,
                    "killed \(what): \(trip.distanceMeters) m against \(reference.distanceMeters) m")
            #expect(abs(trip.fuelLiters - reference.fuelLiters) <= reference.fuelLiters * 0.02,
                    "killed \(what): \(trip.fuelLiters) L against \(reference.fuelLiters) L")
            #expect(abs(trip.idleMs - reference.idleMs) <= idleTolerance,
                    "killed \(what): idle \(trip.idleMs) ms against \(reference.idleMs) ms uninterrupted")
            #expect(abs(trip.movingMs - reference.movingMs) <= Int64(cuts.count) * 2_000,
                    "killed \(what): moving \(trip.movingMs) ms against \(reference.movingMs) ms uninterrupted")
            #expect(abs(trip.durationMs - reference.durationMs) <= 2_000, "killed \(what): \(trip.durationMs) ms against \(reference.durationMs) ms")
        }
    }
}
