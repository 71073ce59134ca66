import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// A year of a family's driving through the store at 1 Hz, with the retention pass the
/// service runs (hourly; here at the end of each day), against the smallest budget a board
/// profile allows.
@Suite struct TripStoreRetentionYearTests {
    static let t0: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z
    static let day: Int64 = 86_400_000
    static let minute: Int64 = 60_000

    /// (driver, start minute of the day, minutes) for each trip of day `day`: commutes and school
    /// runs on weekdays, a long trip and an errand at weekends; about 1.4 driving hours a day.
    static func trips(on day: Int) -> [(driver: Int, startMinute: Int64, minutes: Int)] {
        switch day % 7 {
        case 5, 6: [(2, 10 * 60, 70), (0, 17 * 60, 20)]
        case 2: [(0, 7 * 60 + 30, 25), (1, 8 * 60 + 15, 12), (1, 16 * 60, 12), (0, 17 * 60 + 45, 25), (2, 19 * 60, 40)]
        default: [(0, 7 * 60 + 30, 25), (1, 8 * 60 + 15, 12), (1, 16 * 60, 12), (0, 17 * 60 + 45, 25)]
        }
    }

    @Test func aYearOfFamilyDrivingStaysUnderTheBudgetWithEverySummaryKept() throws {
        let budget: Int64 = 16 << 20  // the smallest disk_budget_bytes a board profile accepts
        let policy = RetentionPolicy(diskBudgetBytes: budget)
        let store = try TripStore(
            path: temporaryStorePath(), configuration: StoreConfiguration(retention: policy, durability: .syncAtCheckpoints))
        let names = ["Alice", "Bob", "Chloe"]
        let drivers = try names.map { try store.addDriver(name: $0, tags: [], beacons: []) }
        let run = try store.beginRun(note: "year")
        var recorded: [SessionID: (distance: Double, fuel: Double, start: Int64)] = [:]
        var drivenMs: Int64 = 0
        var largestOnDisk: Int64 = 0
        var bytesPerFullHour: Double?
        var refuels = 0
        for day in 0..<365 {
            for (index, trip) in Self.trips(on: day).enumerated() {
                let start = Self.t0 + Int64(day) * Self.day + trip.startMinute * Self.minute
                let synthetic = SyntheticTrip(seed: UInt64(day * 8 + index), startUTCMs: start, count: trip.minutes * 60)
                let id = try synthetic.record(in: store, driver: drivers[trip.driver], name: names[trip.driver], run: run, batch: 600)
                recorded[id] = (synthetic.points.last!.distanceMeters, synthetic.points.last!.fuelLiters, start)
                drivenMs += synthetic.points.last!.utcMs - start
            }
            if day % 6 == 5 {
                // During the evening commute, so that the split cuts a trip.
                let at = Self.t0 + Int64(day) * Self.day + (17 * 60 + 55) * Self.minute
                try store.addRefuel(RefuelInput(atUTCMs: at, liters: 28, cost: MinorUnits(5_000)))
                refuels += 1
            }
            if day % 30 == 10 {
                let from = Self.t0 + Int64(day) * Self.day + 21 * 3_600_000
                try store.addUntracked(fromUTCMs: from, toUTCMs: from + 1_800_000, distanceMeters: 30_000, fuelLiters: 2)
            }
            try store.logEvent(kind: "unknown_tag", detail: "04:A2:2B:7A:3C:5D:80", utcMs: Self.t0 + Int64(day) * Self.day)
            try store.enforceRetention(nowUTCMs: Self.t0 + Int64(day + 1) * Self.day)
            if day == 29 {
                let hours = Double(drivenMs) / 3_600_000
                bytesPerFullHour = Double(try store.projectedBytes() - policy.walAllowanceBytes) / hours
            }
            largestOnDisk = max(largestOnDisk, store.bytesOnDisk)
            #expect(store.bytesOnDisk <= budget, "day \(day): \(store.bytesOnDisk) bytes on disk")
        }
        try store.enforceRetention(nowUTCMs: Self.t0 + 366 * Self.day)
        let splits = try store.splits()
        let statistics = try store.statistics()

        // Every summary is kept, exactly as recorded.
        let sessions = try store.sessions()
        #expect(sessions.count == recorded.count)
        for session in sessions {
            let expected = try #require(recorded[session.id])
            #expect(session.distanceMeters == expected.distance && session.fuelLiters == expected.fuel && session.startUTCMs == expected.start)
            #expect(session.endReason == .departed)
        }
        // Refuels and their splits too: recomputing them from the thinned tracks changes nothing.
        #expect(splits.count == refuels)
        try store.recomputeSplits()
        #expect(try store.splits() == splits)
        #expect(try store.events().count == 365)
        let clock = ContinuousClock()
        let checkStarted = clock.now
        #expect(try store.checkIntegrity(full: false) == [])
        let quickCheck = clock.now - checkStarted
        #expect(try store.checkIntegrity(full: true) == [])
        #expect(statistics.bytesOnDisk <= budget)
        #expect(statistics.sessionsByTrackLevel[.full, default: 0] > 0, "the newest trips keep their full track")

        // The default budget (2 GiB) against the same family: 400 days of full-rate tracks, then
        // older trips simplified, extrapolated from the bytes a full-rate driving hour took.
        let hoursPerDay = Double(drivenMs) / 3_600_000 / 365
        let perFullHour = try #require(bytesPerFullHour)
        let fullRate400Days = perFullHour * hoursPerDay * 400
        let defaults = RetentionPolicy()
        #expect(fullRate400Days + Double(defaults.walAllowanceBytes) < Double(defaults.diskBudgetBytes) / 10)
        print("""
            retention year: \(sessions.count) trips, \(Int(Double(drivenMs) / 3_600_000)) driving hours (\(String(format: "%.2f", hoursPerDay)) h/day), \
            \(refuels) refuels; budget \(budget) bytes, largest on disk \(largestOnDisk), at the end \(statistics.bytesOnDisk) \
            (tracks: \(statistics.sessionsByTrackLevel[.full, default: 0]) full, \(statistics.sessionsByTrackLevel[.simplified, default: 0]) simplified, \
            \(statistics.sessionsByTrackLevel[.anchorsOnly, default: 0]) anchors only; \(statistics.trackPoints) points kept); \
            full-rate track \(Int(perFullHour)) bytes per driving hour, so 400 days at the default budget take \
            \(Int(fullRate400Days / 1_048_576)) MiB of 2048; quick_check of the final file took \(quickCheck)
            """)
    }
}
