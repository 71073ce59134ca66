import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

@Suite struct StoreMigrationTests {
    static let shippedByFirstStore = ["2026-11-21-initial", "2026-11-21-calibration-detail"]

    /// FNV-1a of a migration's SQL, to notice an edit of a shipped migration.
    static func fingerprint(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    @Test func shippedMigrationsAreNeverEdited() {
        let migrations = StoreSchema.migrations
        #expect(migrations.prefix(2).map(\.name) == Self.shippedByFirstStore)
        #expect(migrations.prefix(2).map { Self.fingerprint($0.sql) } == [0xfd7f_0881_fdd4_b801, 0x7630_5a87_18c5_4fcc])
        #expect(Set(migrations.map(\.name)).count == migrations.count)
    }

    @Test func aFileOfTheFirstStoreIsUpgradedWithItsPoints() throws {
        let path = temporaryStorePath()
        do {
            let connection = try SQLiteConnection(path: path)
            try Migrator(Array(StoreSchema.migrations.prefix(2))).migrate(connection)
            try connection.execute("""
                INSERT INTO drivers (id, name) VALUES (1, 'Alice');
                INSERT INTO runs (id) VALUES (1);
                INSERT INTO sessions (id, driver_id, driver_name, run_id, start_link_ms, start_utc_ms, end_utc_ms, end_reason, distance_m, fuel_l)
                    VALUES (1, 1, 'Alice', 1, 0, 1000, 5000, 'departed', 30, 0.004);
                INSERT INTO trip_points VALUES (1, 3000, 48.1, 2.2, 10, 20, 0.003), (1, 2000, 48.0, 2.1, 10, 10, 0.002);
                """)
        }
        #expect(try SQLiteConnection(path: path).pragmaInt("auto_vacuum") == 0)
        let store = try TripStore(path: path)
        #expect(try Migrator([]).applied(in: store.connection) == StoreSchema.migrations.map(\.name))
        #expect(try store.connection.pragmaInt("auto_vacuum") == 2)
        #expect(try store.connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE name = 'trip_points'") == 0)
        let points = try store.tripPoints(session: SessionID(1))
        #expect(points.map(\.utcMs) == [2000, 3000])
        #expect(points.map(\.distanceMeters) == [10, 20])
        #expect(points.map(\.latitude) == [48.0, 48.1])
        #expect(try store.sessions().first?.distanceMeters == 30)
        #expect(try store.checkIntegrity(full: true) == [])
    }

    @Test func aNewFileStartsWithIncrementalVacuumAndEveryMigration() throws {
        let store = try TripStore(path: temporaryStorePath())
        #expect(try store.connection.pragmaInt("auto_vacuum") == 2)
        #expect(try store.connection.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try store.connection.pragmaInt("synchronous") == 2)  // FULL
        #expect(try Migrator([]).applied(in: store.connection) == StoreSchema.migrations.map(\.name))
    }

    @Test func aFailedMigrationChangesNothing() throws {
        let path = temporaryStorePath()
        let connection = try SQLiteConnection(path: path)
        try Migrator([Migration("a", "CREATE TABLE a (x)")]).migrate(connection)
        let broken = Migrator([Migration("a", "CREATE TABLE a (x)"), Migration("b", "CREATE TABLE b (x); CREATE TABLE a (y)")])
        #expect(throws: StoreError.self) { try broken.migrate(connection) }
        #expect(try broken.applied(in: connection) == ["a"])
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE name = 'b'") == 0)
    }

    @Test func aStepOutsideATransactionIsRecordedAfterItRuns() throws {
        let connection = try SQLiteConnection(path: temporaryStorePath())
        let migrator = Migrator([Migration("vacuum", inTransaction: false) { try $0.execute("VACUUM") }])
        try migrator.migrate(connection)
        try migrator.migrate(connection)
        #expect(try migrator.applied(in: connection) == ["vacuum"])
    }
}
