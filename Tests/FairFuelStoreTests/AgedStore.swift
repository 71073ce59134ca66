import FairFuelCore
import FairFuelDomain
@testable import FairFuelStore
import TestSupport

/// A car's history written the way the service writes it, boot by boot: a dongle that loses
/// power at every engine stop boots 2 to 6 times a day, and each boot opens the store with its
/// integrity check, runs the start-up retention pass, begins a run, records that boot's trips
/// (1 Hz points flushed every 10 s, as the recorder does) and runs the hourly pass. Around it the
/// family enters refuels, corrects trips, and an uplink queues every record (sent at the next boot).
/// The same history for the same seed.
struct AgedStore {
    static let day: Int64 = 86_400_000
    /// The board profile's default outbox budget (`[uplink] outbox_max_messages`, `outbox_max_bytes`).
    static let uplink = OutboxUplink(budget: OutboxBudget(maximumMessages: 5_000, maximumBytes: 4_194_304))

    var days: Int
    /// Midnight UTC of the history's first day.
    var firstDayUTCMs: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z
    var seed: UInt64 = 1
    var retention = RetentionPolicy()
    /// Points written per flush: the recorder writes every 10 s at the kept 1 Hz.
    var pointsPerFlush = 10

    /// What was written, to check the store against.
    struct Written {
        var boots = 0
        var sessions: Set<SessionID> = []
        var deletedSessions = 0
        var refuels = 0
        var corrections = 0
        var untracked = 0
        var drivenSeconds = 0
    }

    /// Writes the history into a new store at `path`.
    @discardableResult
    func build(at path: String) throws -> Written {
        var random = SeededGenerator(seed: seed)
        var written = Written()
        let names = ["Dora", "Eli", "Finn"]  // not the scenarios' family, which scripts/growth.sh provisions on top
        var drivers: [DriverID] = []
        do {
            let store = try TripStore(path: path, configuration: configuration)
            drivers = try names.map { try store.addDriver(name: $0, tags: [], beacons: []) }
        }
        var pendingUntracked: [Int64] = []
        var lastRecorded: SessionID?
        for day in 0..<days {
            let dayStart = firstDayUTCMs + Int64(day) * Self.day
            let boots = Int.random(in: 2...6, using: &random)
            // Boots spread over the waking day; each carries one drive, now and then none (the
            // dongle woke for a door, or the car was started and left) or an untracked one.
            for boot in 0..<boots {
                let bootStart = dayStart + Int64(7 * 60 + boot * (14 * 60 / boots)) * 60_000
                let store = try TripStore.openCheckingIntegrity(path: path, configuration: configuration, wallClockUTCMs: nil).store
                store.uplink = Self.uplink
                try store.enforceRetention(nowUTCMs: nil)
                // The uplink sends what the last boots queued, once the network is there.
                for message in try store.pendingOutboxMessages(limit: 10_000) { try store.markOutboxMessageSent(message.id) }
                let run = try store.beginRun(note: "service")
                written.boots += 1
                let kind = Int.random(in: 0..<20, using: &random)
                if kind == 0 {
                    // no drive this boot
                } else if kind == 1 {
                    try store.addUntracked(
                        fromUTCMs: bootStart + 60_000, toUTCMs: bootStart + 900_000, distanceMeters: 8_000, fuelLiters: 0.6,
                        candidates: [drivers[0]])
                    written.untracked += 1
                    if let id = try store.untrackedDriving(sinceUTCMs: bootStart).last?.id { pendingUntracked.append(id) }
                } else {
                    let driver = Int.random(in: 0..<names.count, using: &random)
                    let minutes = Int.random(in: 8...45, using: &random)
                    let trip = SyntheticTrip(seed: random.next(), startUTCMs: bootStart + 30_000, count: minutes * 60)
                    let id = try trip.record(in: store, driver: drivers[driver], name: names[driver], run: run, batch: pointsPerFlush)
                    written.sessions.insert(id)
                    lastRecorded = id
                    written.drivenSeconds += minutes * 60
                }
                if Int.random(in: 0..<40, using: &random) == 0 {
                    try store.logEvent(kind: "unknown_tag", detail: "04:A2:2B:7A:3C:5D:80", utcMs: bootStart)
                }
                // The hourly pass, with GNSS time.
                try store.enforceRetention(nowUTCMs: bootStart + 3_600_000)
            }
            let store = try TripStore(path: path, configuration: configuration)
            store.uplink = Self.uplink
            if day % 6 == 5 {
                // A fill-up at the end of the day, typed in on the phone's CLI.
                try store.addRefuel(RefuelInput(atUTCMs: dayStart + 22 * 3_600_000, liters: 35, cost: MinorUnits(6_300)))
                written.refuels += 1
            }
            if day % 14 == 13, !pendingUntracked.isEmpty {
                // Untracked driving given to its driver: the bills are split again.
                let assigned = try store.assignTrips([.untracked(pendingUntracked.removeFirst())], to: drivers[0], force: true)
                for trip in assigned.trips { if let session = trip.session { written.sessions.insert(SessionID(session)) } }
                written.corrections += 1
            }
            if day % 30 == 29, let last = lastRecorded, written.sessions.contains(last) {
                // A trip deleted (it was a test drive): its fuel stays as untracked driving.
                _ = try store.deleteTrip(.session(last.rawValue), force: true)
                written.sessions.remove(last)
                written.deletedSessions += 1
                written.corrections += 1
            }
        }
        return written
    }

    var configuration: StoreConfiguration { StoreConfiguration(retention: retention, durability: .syncAtCheckpoints) }
}
