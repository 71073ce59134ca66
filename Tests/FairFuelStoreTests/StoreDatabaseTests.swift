import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Testing

/// The database façade: opens and migrates the file once, hands out a writer and readers, and
/// the store's operations run over the connection it holds.
@Suite struct StoreDatabaseTests {
    @Test func aWriterMigratesAndAReaderSeesWhatItCommitted() throws {
        let path = temporaryStorePath()
        let database = try StoreDatabase(path: path)
        #expect(database.migrationsAppliedBefore.isEmpty, "a new file had no migration before")
        #expect(!database.readOnly)
        let store = try TripStore(database: database)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])

        let reader = try database.openReader()
        #expect(try reader.scalarText("SELECT name FROM drivers WHERE id = ?", .integer(alice.rawValue)) == "Alice")
        #expect(throws: SQLiteError.self) { try reader.run("DELETE FROM drivers") }
        #expect(try store.drivers().map(\.name) == ["Alice"], "the reader changed nothing")

        // A second open finds every migration applied: nothing is migrated twice.
        let again = try StoreDatabase(path: path)
        #expect(again.migrationsAppliedBefore == StoreSchema.migrations.map(\.name))
        let readOnly = try TripStore(database: StoreDatabase(path: path, readOnly: true))
        #expect(readOnly.database.readOnly)
        #expect(try readOnly.drivers().map(\.name) == ["Alice"])
    }

    @Test func aReopenedConnectionServesEveryRepository() throws {
        let store = try TripStore(path: temporaryStorePath())
        store.uplink = OutboxUplink(budget: OutboxBudget(maximumMessages: 10, maximumBytes: 1 << 16))
        let before = store.connection
        try store.reopen()
        #expect(store.connection !== before, "the façade holds the new connection")
        // Provisioning and the outbox read and write through the database, not a connection they kept.
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        #expect(try store.driverID(named: "Bob") == bob)
        try store.enqueueOutboxMessage(topic: "fairfuel/car/status", payload: Array("{}".utf8), retained: true, kind: .status,
                                       budget: OutboxBudget(maximumMessages: 10, maximumBytes: 1 << 16))
        #expect(try store.outboxStatistics().pendingStatusMessages == 1)
        #expect(try store.enforceRetention(nowUTCMs: nil).overBudget == false)
    }

    @Test func theUplinkAndTheFuelLogShareTheRefuelFields() {
        let refuel = RefuelInput(
            atUTCMs: 1_700_000_000_000, liters: 41.5, cost: MinorUnits(7_311), odometerKilometers: 12_345.6, station: "Aral",
            enteredUTCMs: 1_700_000_060_000, untrackedPolicy: nil, settledUTCMs: 1_700_000_120_000)
        let uplink = UplinkPayload.refuel(refuel, vehicleCurrency: "EUR").string
        var log = JSONLine()
        UplinkPayload.addRefuelFields(refuel, vehicleCurrency: "EUR", withBookState: true, to: &log)
        #expect(uplink.hasPrefix("{\"at_utc\":\"2023-11-14T22:13:20"))
        #expect(uplink.contains("\"liters\":41.5,\"cost_cents\":7311,\"currency\":\"EUR\",\"full\":true,\"odometer_km\":12345.6"))
        #expect(!uplink.contains("settled_utc"), "the book's state stays off the uplink")
        #expect(log.string.contains("\"settled_utc\":\"2023-11-14T22:15:20"))
        // The fuel log is the uplink's fields with the book's state added before the end.
        #expect(log.string.hasPrefix(String(uplink.dropLast())))
    }
}
