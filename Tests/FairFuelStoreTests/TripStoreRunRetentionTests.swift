import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// The `runs` table under a dongle that boots at every engine start: a row per boot would grow for
/// ever, so the retention pass drops the rows of runs nobody needs and keeps those that are needed.
@Suite struct TripStoreRunRetentionTests {
    static func runIDs(_ store: TripStore) throws -> [Int64] {
        try store.connection.query("SELECT id FROM runs ORDER BY id") { $0.int64(0) }
    }

    static func sessionRunIDs(_ store: TripStore) throws -> Set<Int64> {
        Set(try store.connection.query("SELECT run_id FROM sessions") { $0.int64(0) })
    }

    @Test func manyBootsEndUnderTheBoundKeepingRunsWithTripsOrCaptures() throws {
        let path = temporaryStorePath()
        let configuration = StoreConfiguration(durability: .syncAtCheckpoints)
        do {
            let store = try TripStore(path: path, configuration: configuration)
            _ = try store.addDriver(name: "Anna", tags: [], beacons: [])
        }
        var everyRunID: [Int64] = []
        var runsWithTrips: Set<Int64> = []
        var captures: [String: Int64] = [:]
        for boot in 0..<600 {
            // Each boot is a new process: start-up retention, then the run's row.
            let store = try TripStore(path: path, configuration: configuration)
            try store.enforceRetention(nowUTCMs: nil)
            let fingerprint = boot % 100 == 7 ? "fnv1a64:\(boot):1000" : nil
            let run = try store.beginRun(note: fingerprint == nil ? "service" : "replay", captureFingerprint: fingerprint)
            #expect(run > (everyRunID.last ?? 0), "run ids are never given again")
            everyRunID.append(run)
            if let fingerprint { captures[fingerprint] = run }
            if boot % 5 == 0 {
                let start = 1_767_225_600_000 + Int64(boot) * 3_600_000
                let trip = SyntheticTrip(seed: UInt64(boot), startUTCMs: start, count: 30)
                try trip.record(in: store, driver: DriverID(1), name: "Anna", run: run)
                runsWithTrips.insert(run)
            }
        }
        let store = try TripStore(path: path, configuration: configuration)
        let report = try store.enforceRetention(nowUTCMs: nil)
        #expect(report.runsDeleted > 0)
        let kept = try Self.runIDs(store)
        let bound = runsWithTrips.count + captures.count + Int(TripStore.newestRunsKept)
        #expect(kept.count <= bound, "\(kept.count) runs kept for 600 boots, bound \(bound)")
        #expect(kept.count < 600 / 3)
        // What other features read is there: every session's run, every replayed capture, the newest runs.
        #expect(try Self.sessionRunIDs(store).isSubset(of: Set(kept)))
        #expect(runsWithTrips.isSubset(of: Set(kept)))
        for (fingerprint, run) in captures {
            #expect(try store.replayRun(ofCapture: fingerprint)?.id == run)
        }
        #expect(Array(kept.suffix(Int(TripStore.newestRunsKept))) == Array(everyRunID.suffix(Int(TripStore.newestRunsKept))))
        // A run without trips older than the newest ones is gone.
        #expect(!kept.contains(everyRunID[1]))
        // The next run follows the newest: no id comes back.
        #expect(try store.beginRun(note: "service") == everyRunID.last! + 1)
    }

    @Test func aRunIsKeptWhileItIsAmongTheNewestAndOnceItHasATrip() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path, configuration: StoreConfiguration(durability: .syncAtCheckpoints))
        let driver = try store.addDriver(name: "Ben", tags: [], beacons: [])
        let serviceRun = try store.beginRun(note: "service")
        // Other runs begin meanwhile (replays without a capture fingerprint, boots of another
        // process): while the service's run is among the newest, no pass drops it.
        for _ in 1..<TripStore.newestRunsKept { _ = try store.beginRun(note: "other") }
        for _ in 0..<3 { try TripStore(path: path).enforceRetention(nowUTCMs: nil) }
        #expect(try Self.runIDs(store).contains(serviceRun))
        // Its first trip comes later, and from then on the run is needed whatever follows.
        let trip = SyntheticTrip(seed: 9, startUTCMs: 1_767_225_600_000, count: 60)
        let session = try trip.record(in: store, driver: driver, name: "Ben", run: serviceRun)
        for _ in 0..<(3 * TripStore.newestRunsKept) { _ = try store.beginRun(note: "service") }
        let report = try TripStore(path: path).enforceRetention(nowUTCMs: nil)
        #expect(report.runsDeleted == Int(3 * TripStore.newestRunsKept - 1))
        let kept = try Self.runIDs(store)
        #expect(kept.contains(serviceRun))
        #expect(kept.count == 1 + Int(TripStore.newestRunsKept))
        #expect(try store.sessions().map(\.id) == [session])
        // Within one process, a pass scans the sessions only when a run began since its last.
        #expect(try store.enforceRetention(nowUTCMs: nil).runsDeleted == 0)
        #expect(store.runsPrunedThrough == 4 * TripStore.newestRunsKept - TripStore.newestRunsKept)
    }

    @Test func aMonthOfBootsThroughTheServicePathKeepsTheRunsTableToTheTripsItHolds() throws {
        let path = temporaryStorePath()
        let written = try AgedStore(days: 30).build(at: path)
        let store = try TripStore(path: path)
        let runs = try Self.runIDs(store).count
        let sessions = try store.sessions()
        #expect(Set(sessions.map(\.id)) == written.sessions, "every summary is kept")
        #expect(written.boots > 2 * 30)
        #expect(runs <= sessions.count + written.deletedSessions + Int(TripStore.newestRunsKept))
        #expect(runs < written.boots)
        #expect(try Self.sessionRunIDs(store).isSubset(of: Set(try Self.runIDs(store))))
    }

    /// Writes a long history for `scripts/growth.sh` to measure: `FAIRFUEL_AGED_STORE=PATH`
    /// (`FAIRFUEL_AGED_DAYS`, default 365). Not a measurement itself: the script prints the figures.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FAIRFUEL_AGED_STORE"] != nil))
    func writesTheAgedStoreTheGrowthScriptMeasures() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment["FAIRFUEL_AGED_STORE"])
        let days = Int(environment["FAIRFUEL_AGED_DAYS"] ?? "") ?? 365
        for suffix in ["", "-wal", "-shm", "-reserve"] { unlink(path + suffix) }
        // The history ends where the family week's scenario (which the script plays on it) begins.
        let scenarioStart: Int64 = 1_772_323_200_000  // 2026-03-01T00:00:00Z
        let written = try AgedStore(days: days, firstDayUTCMs: scenarioStart - Int64(days) * AgedStore.day).build(at: path)
        let store = try TripStore(path: path)
        #expect(Set(try store.sessions().map(\.id)) == written.sessions)
        print(
            "aged store: \(days) days, \(written.boots) boots, \(written.sessions.count) trips (\(written.drivenSeconds / 3_600) driving hours), "
                + "\(written.deletedSessions) deleted, \(written.untracked) untracked, \(written.refuels) refuels, \(written.corrections) corrections")
    }
}
