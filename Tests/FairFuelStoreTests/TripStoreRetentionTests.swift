import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

@Suite struct TrackSimplifierTests {
    static func point(_ seconds: Int64, _ north: Double, _ east: Double, fuel: Double = 0) -> StoredTripPoint {
        StoredTripPoint(
            session: SessionID(1), utcMs: seconds * 1_000, latitude: 48 + north / 111_320, longitude: 2 + east / (111_320 * cos(48 * Double.pi / 180)),
            speedMetersPerSecond: 10, distanceMeters: Double(seconds) * 10, fuelLiters: fuel)
    }

    @Test func aStraightRoadKeepsItsEndsAndAPointEveryGap() {
        let points = (0...600).map { Self.point(Int64($0), Double($0) * 10, 0) }
        let kept = TrackSimplifier.simplified(points, toleranceMeters: 10, maximumGapMs: 300_000, anchorTimes: [])
        #expect(kept.map(\.utcMs) == [0, 300_000, 600_000])
    }

    @Test func cornersAreKeptAndNoPointStraysBeyondTheTolerance() {
        // North 1 km, east 1 km, north again: two corners.
        let points = (0...300).map { s -> StoredTripPoint in
            let s = Double(s)
            return s <= 100 ? Self.point(Int64(s), s * 10, 0) : s <= 200 ? Self.point(Int64(s), 1_000, (s - 100) * 10) : Self.point(Int64(s), 1_000 + (s - 200) * 10, 1_000)
        }
        let kept = TrackSimplifier.simplified(points, toleranceMeters: 10, maximumGapMs: 300_000, anchorTimes: [])
        #expect(kept.map(\.utcMs) == [0, 100_000, 200_000, 300_000])
    }

    @Test func pointsAroundRefuelMomentsAreAlwaysKept() {
        let points = (0...100).map { Self.point(Int64($0), Double($0) * 10, 0) }
        let anchors: [Int64] = [30_500, 70_000, -5, 200_000]
        let simplified = TrackSimplifier.simplified(points, toleranceMeters: 10, maximumGapMs: 300_000, anchorTimes: anchors)
        #expect(simplified.map(\.utcMs) == [0, 30_000, 31_000, 69_000, 70_000, 71_000, 100_000])
        let bare = TrackSimplifier.anchorsOnly(points, anchorTimes: anchors)
        #expect(bare.map(\.utcMs) == [0, 30_000, 31_000, 69_000, 70_000, 71_000, 100_000])
        #expect(TrackSimplifier.anchorsOnly(points, anchorTimes: []).map(\.utcMs) == [0, 100_000])
    }
}

@Suite struct TripStoreRetentionTests {
    static let t0: Int64 = 1_795_000_000_000
    static let day: Int64 = 86_400_000

    /// Three drivers over `days` days, two trips a day, a refuel (full) every fourth day.
    static func family(_ store: TripStore, days: Int, pointsPerTrip: Int = 900) throws {
        let drivers = try ["Alice", "Bob", "Chloe"].map { try store.addDriver(name: $0, tags: [], beacons: []) }
        let run = try store.beginRun(note: "t")
        for day in 0..<days {
            for trip in 0..<2 {
                let start = t0 + Int64(day) * Self.day + Int64(trip) * 8 * 3_600_000
                let driver = (day + trip) % 3
                try SyntheticTrip(seed: UInt64(day * 2 + trip), startUTCMs: start, count: pointsPerTrip)
                    .record(in: store, driver: drivers[driver], name: ["Alice", "Bob", "Chloe"][driver], run: run)
            }
            if day % 4 == 3 {
                // In the middle of the evening trip: the splits cut it at this moment.
                try store.addRefuel(RefuelInput(atUTCMs: t0 + Int64(day) * Self.day + 8 * 3_600_000 + 400_000, liters: 20, cost: MinorUnits(3_500)))
            }
        }
    }

    @Test func theEventLogKeepsItsCap() throws {
        let store = try TripStore(path: temporaryStorePath(), configuration: StoreConfiguration(retention: RetentionPolicy(eventLogMaxRows: 100)))
        for n in 0..<250 { try store.logEvent(kind: "link_error", detail: "crc \(n)", utcMs: Int64(n)) }
        let events = try store.events()
        #expect(events.count == 100)
        #expect(events.first?.detail == "crc 150")
        #expect(events.last?.detail == "crc 249")
    }

    @Test func aKindWithItsOwnCapNeverPushesTheOthersOut() throws {
        let store = try TripStore(path: temporaryStorePath(), configuration: StoreConfiguration(retention: RetentionPolicy(eventLogMaxRows: 100)))
        for n in 0..<5 { try store.logEvent(kind: "unknown_tag", detail: "tag \(n)", utcMs: Int64(n)) }
        for n in 0..<500 { try store.logEvent(kind: "link_errors", detail: "crc_error \(n)", utcMs: Int64(n), keepingAtMost: 30) }
        #expect(try store.events(kind: "unknown_tag").count == 5)
        let noise = try store.events(kind: "link_errors")
        #expect(noise.count == 30)
        #expect(noise.first?.detail == "crc_error 470")
        #expect(noise.last?.detail == "crc_error 499")
    }

    /// Tracks older than the age limit are simplified; every summary, refuel, split and
    /// calibration stays exactly as it was, and recomputing the splits gives the same shares.
    @Test func oldTracksAreSimplifiedAndSplitsDoNotMove() throws {
        let store = try TripStore(path: temporaryStorePath(), configuration: StoreConfiguration(retention: RetentionPolicy(tripPointMaxAgeDays: 10)))
        try Self.family(store, days: 24)
        let sessions = try store.sessions()
        let splits = try store.splits()
        let calibration = try store.calibrationHistory()
        let before = try sessions.map { try store.tripPoints(session: $0.id) }
        let report = try store.enforceRetention(nowUTCMs: Self.t0 + 30 * Self.day)
        #expect(report.sessionsSimplifiedForAge == 40)  // days 0...19 ended more than 10 days before day 30
        #expect(report.pointsRemoved > 0)
        #expect(try store.sessions() == sessions)
        try store.recomputeSplits()
        #expect(try store.splits() == splits)
        #expect(try store.calibrationHistory() == calibration)
        for (session, original) in zip(sessions, before) {
            let kept = try store.tripPoints(session: session.id)
            let old = session.startUTCMs! < Self.t0 + 20 * Self.day
            if !old {
                #expect(kept == original)
                continue
            }
            #expect(kept.count < original.count)
            #expect(kept.first == original.first && kept.last == original.last)
            let byTime = Dictionary(uniqueKeysWithValues: original.map { ($0.utcMs, $0) })
            #expect(kept.allSatisfy { byTime[$0.utcMs] == $0 })
        }
        #expect(try store.statistics().sessionsByTrackLevel == [.full: 8, .simplified: 40])
        // Nothing more to do the second time.
        #expect(try store.enforceRetention(nowUTCMs: Self.t0 + 30 * Self.day).isEmpty)
        #expect(try store.checkIntegrity(full: true) == [])
    }

    /// Over budget, the oldest tracks go first: simplified, then reduced to anchors; the file
    /// shrinks under the budget and summaries, refuels and splits are all kept.
    @Test func overBudgetTheOldestTracksAreThinnedAndTheFileShrinks() throws {
        let path = temporaryStorePath()
        let budget: Int64 = 1 << 20
        let roomy = try TripStore(path: path)
        try Self.family(roomy, days: 30, pointsPerTrip: 1_800)
        let bytesBefore = roomy.bytesOnDisk
        #expect(try roomy.projectedBytes() - RetentionPolicy().walAllowanceBytes > budget)
        let splits = try roomy.splits()
        let sessions = try roomy.sessions()
        let store = try TripStore(path: path, configuration: StoreConfiguration(retention: RetentionPolicy(diskBudgetBytes: budget)))
        let report = try store.enforceRetention(nowUTCMs: nil)
        #expect(report.sessionsSimplifiedForBudget > 0)
        print("budget test: \(report)")
        #expect(!report.overBudget)
        #expect(report.pagesVacuumed > 0)
        #expect(try store.projectedBytes() <= budget)
        #expect(store.bytesOnDisk < bytesBefore)
        #expect(store.bytesOnDisk <= budget, "\(store.bytesOnDisk) bytes on disk")
        #expect(try store.sessions() == sessions)
        try store.recomputeSplits()
        #expect(try store.splits() == splits)
        // The newest tracks keep more than the oldest.
        let levels = try store.connection.query("SELECT track_level FROM sessions ORDER BY start_utc_ms") { $0.int(0) }
        #expect(levels == levels.sorted(by: >))
        #expect(try store.checkIntegrity(full: true) == [])
    }

    @Test func summariesAloneOverBudgetAreReportedNotDeleted() throws {
        let store = try TripStore(
            path: temporaryStorePath(),
            configuration: StoreConfiguration(retention: RetentionPolicy(diskBudgetBytes: 64 * 1024)))
        try Self.family(store, days: 3, pointsPerTrip: 300)
        let report = try store.enforceRetention(nowUTCMs: nil)
        #expect(report.overBudget)
        #expect(try store.sessions().count == 6)
        #expect(try store.statistics().sessionsByTrackLevel == [.anchorsOnly: 6])
    }
}
