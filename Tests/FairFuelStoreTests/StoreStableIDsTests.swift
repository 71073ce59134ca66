import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// `StoreSchema.stableIDs`: a deleted trip's or refuel's id is never given to another record,
/// on a new store and on one upgraded from the schema before it.
@Suite struct StoreStableIDsTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0

    @Test func theLatestTripDeletedLeavesItsNumberUnused() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        let latest = try #require(try store.sessions().map(\.id.rawValue).max())
        _ = try store.deleteTrip(.session(latest))
        // The deleted drive is untracked driving again; given to a driver it is a new trip, not the old number.
        let pieces = try store.untrackedDriving()
        let piece = try #require(pieces.last)
        let assigned = try store.assignTrips([.untracked(piece.id)], to: family.cara)
        let newTrip = try #require(assigned.trips.first?.session)
        #expect(newTrip == latest + 1)
        // The stretch of untracked driving it came from keeps its number to itself too.
        try store.addUntracked(fromUTCMs: Self.t0 + 20 * Self.hour, toUTCMs: Self.t0 + 21 * Self.hour, distanceMeters: 1_000, fuelLiters: 0.1)
        #expect(try #require(try store.untrackedDriving().map(\.id).max()) > piece.id)
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    @Test func theLatestRefuelRemovedLeavesItsNumberUnused() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        let latest = try #require(try store.refuels().map(\.id).max())
        _ = try store.removeRefuel(id: latest)
        let added = try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 11 * Self.hour, liters: 13, cost: MinorUnits(2_600)))
        #expect(added == latest + 1)
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    /// A store of the schema before: its rows, ids, indexes and references survive the rebuild,
    /// and the counter starts past the largest id it still knows of, a published one included.
    @Test func anUpgradedStoreKeepsItsRowsAndNeverReusesAPublishedID() throws {
        let path = temporaryStorePath()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA foreign_keys = ON")
            let before = StoreSchema.migrations.prefix { $0.name != StoreSchema.stableIDs.name }
            #expect(before.last?.name == StoreSchema.vehicleTimeZone.name)
            try Migrator(Array(before)).migrate(connection)
            try connection.execute(
                """
                INSERT INTO drivers (id, name) VALUES (1, 'Alice');
                INSERT INTO runs (id) VALUES (1);
                INSERT INTO sessions (id, driver_id, driver_name, run_id, start_link_ms, start_utc_ms, end_utc_ms, end_reason, distance_m, fuel_l)
                    VALUES (4, 1, 'Alice', 1, 0, 1000, 5000, 'departed', 30, 0.4),
                           (5, 1, 'Alice', 1, 0, 9000, 9500, 'departed', 10, 0.1);
                UPDATE sessions SET continued_from = 4 WHERE id = 5;
                INSERT INTO refuels (id, at_utc_ms, liters, cost_minor, full_tank) VALUES (2, 7000, 20, 3000, 1);
                INSERT INTO refuel_shares (refuel_id, driver_id, driver_name, fuel_l, cost_minor) VALUES (2, 1, 'Alice', 20, 3000);
                INSERT INTO untracked_driving (id, from_utc_ms, to_utc_ms, distance_m, fuel_l) VALUES (3, 6000, 6500, 5, 0.05);
                -- Trip 9 and refuel 6 were published, then deleted: their numbers are used.
                INSERT INTO outbox_revisions (topic_kind, record_id, revision) VALUES ('trip', 9, 1), ('split', 6, 0), ('refuel', 2, 0);
                """)
        }
        let store = try TripStore(path: path)
        let connection = store.connection
        #expect(try Migrator([]).applied(in: connection) == StoreSchema.migrations.map(\.name))
        for table in ["sessions", "refuels", "untracked_driving"] {
            let definition = try #require(try connection.scalarText("SELECT sql FROM sqlite_master WHERE name = ?", .text(table)))
            #expect(definition.contains("id INTEGER PRIMARY KEY AUTOINCREMENT"), "\(table): \(definition)")
            #expect(try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE name = ?", .text("\(table)_rebuilt")) == 0)
        }
        // Rows and ids as they were, with every column later migrations added.
        #expect(try store.sessions().map(\.id.rawValue) == [4, 5])
        #expect(try connection.scalarInt("SELECT continued_from FROM sessions WHERE id = 5") == 4)
        #expect(try store.untrackedDriving().map(\.id) == [3])
        #expect(try store.refuels().map(\.id) == [2])
        // The indexes are back.
        let indexes = try connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") {
            $0.text(0) ?? ""
        }
        #expect(indexes.contains("sessions_by_start") && indexes.contains("untracked_by_time"))
        #expect(try connection.query("PRAGMA foreign_key_check") { $0.text(0) ?? "" }.isEmpty)
        #expect(try connection.pragmaInt("foreign_keys") == 1)
        // References still hold: removing the refuel takes its shares with it (three since the upgrade
        // re-split it by the first-fill rule: Alice's 0.4 L, the untracked 0.05 L, the rest before tracking).
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM refuel_shares WHERE refuel_id = 2") == 3)
        try connection.execute("DELETE FROM refuels WHERE id = 2")
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM refuel_shares WHERE refuel_id = 2") == 0)
        // The next ids start past the published ones (trip 9; split 6 is refuel 6).
        let alice = DriverID(1)
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 30, end: 31, liters: 1)
        #expect(try store.sessions().map(\.id.rawValue).max() == 10)
        #expect(try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 40 * Self.hour, liters: 20, cost: MinorUnits(3_000))) == 7)
        try store.addUntracked(fromUTCMs: Self.t0 + 41 * Self.hour, toUTCMs: Self.t0 + 42 * Self.hour, distanceMeters: 9, fuelLiters: 0.01)
        #expect(try store.untrackedDriving().map(\.id).max() == 4)
    }

    /// A power cut after the rebuild committed and before the migration was recorded: the step
    /// runs again and changes nothing.
    @Test func theRebuildRunTwiceChangesNothing() throws {
        let family = try TripStoreBookTests.family()
        let connection = family.store.connection
        let schema = { try connection.query("SELECT name, sql FROM sqlite_master ORDER BY name") { "\($0.text(0) ?? ""): \($0.text(1) ?? "")" } }
        let sequence = { try connection.query("SELECT name, seq FROM sqlite_sequence ORDER BY name") { "\($0.text(0) ?? "") \($0.int64(1))" } }
        let (schemaBefore, sequenceBefore) = (try schema(), try sequence())
        let body = try #require(StoreSchema.stableIDs.body)
        try body(connection)
        #expect(try schema() == schemaBefore)
        #expect(try sequence() == sequenceBefore)
        #expect(try family.store.sessions().count == 3)
    }
}
