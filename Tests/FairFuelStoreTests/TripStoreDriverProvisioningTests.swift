import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// Drivers, their tags and beacons: removal keeps history, rename, binding conflicts, the migration.
@Suite struct TripStoreDriverProvisioningTests {
    static let anna = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1"
    static let uri = UUID128("3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8")!

    @Test func sixteenDriversAndMoreFitAVehicle() throws {
        let store = try TripStore(path: temporaryStorePath())
        for index in 0..<16 {
            try store.addDriver(
                name: "Driver \(index)", tags: [.uid(try TagUID(parsing: String(format: "04%06X", index)))],
                beacons: [try BeaconIdentity(spec: "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:7:\(index)")])
        }
        #expect(try store.drivers().count == 16)
        #expect(try store.directory().drivers.count == 16)
    }

    @Test func removingADriverFreesTagsAndBeaconsAndKeepsTheirTrips() throws {
        let store = try TripStore(path: temporaryStorePath())
        let id = try store.addDriver(name: "Anna", contact: "anna@example.org", tags: [.uid(try TagUID(parsing: "04:a2:2b:7a"))], beacons: [try BeaconIdentity(spec: Self.anna)])
        try store.connection.execute("""
            INSERT INTO runs (id) VALUES (1);
            INSERT INTO sessions (driver_id, driver_name, run_id, start_link_ms, start_utc_ms, end_utc_ms, end_reason, distance_m)
                VALUES (\(id.rawValue), 'Anna', 1, 0, 1000, 5000, 'departed', 3000);
            """)
        let removed = try store.removeDriver(named: "anna")
        #expect(removed.id == id)
        #expect(try store.drivers().isEmpty)
        #expect(try store.drivers(includingRemoved: true).map(\.removed) == [true])
        #expect(try store.sessions().map(\.driverName) == ["Anna"])
        #expect(try store.connection.scalarInt("SELECT driver_id FROM sessions") == id.rawValue)
        // The tag, the beacon and the name are free again; the new Anna is another driver.
        let again = try store.addDriver(name: "Anna", tags: [.uid(try TagUID(parsing: "04A22B7A"))], beacons: [try BeaconIdentity(spec: Self.anna)])
        #expect(again != id)
        #expect(throws: StoreError.notFound("no driver named 'Ben' (drivers: Anna)")) { try store.removeDriver(named: "Ben") }
    }

    @Test func renameRefusesATakenNameAndKeepsTripNames() throws {
        let store = try TripStore(path: temporaryStorePath())
        try store.addDriver(name: "Anna", tags: [], beacons: [])
        try store.addDriver(name: "Ben", tags: [], beacons: [])
        #expect(throws: StoreError.invalid("a driver named 'BEN' already exists")) { try store.renameDriver(named: "Anna", to: "BEN") }
        _ = try store.renameDriver(named: "Anna", to: "Annika")
        #expect(try store.drivers().map(\.name) == ["Annika", "Ben"])
        _ = try store.renameDriver(named: "annika", to: "Annika")  // a change of case only is allowed
    }

    /// A rename corrects how the family writes a name: the person's trips and shares carry the
    /// new one, so that a trip given to them afterwards lands on the same line as their others.
    @Test func aRenameCarriesTheDriversHistoryAndTheUplinkHearsOfIt() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        store.uplink = OutboxUplink(budget: OutboxBudget(maximumMessages: 1_000, maximumBytes: 1 << 20))
        _ = try store.renameDriver(named: "alice", to: "Alicia")
        #expect(try store.sessions().map(\.driverName) == ["Alicia", "Bob", "Alicia"])
        #expect(try TripStoreBookTests.costs(store, 1) == ["Alicia": 3_000, "Bob": 3_000])
        #expect(try TripStoreBookTests.costs(store, 2) == ["Bob": 1_156, "(untracked)": 867, "Alicia": 578])
        // Her two trips and the two bills she has a share of, published again under the new name.
        let messages = try TripStoreUplinkTests.messages(store)
        #expect(messages.map { TripStoreUplinkTests.kind($0.topic) } == ["trip", "trip", "split", "split"])
        #expect(messages.prefix(2).allSatisfy { $0.json["driver"] as? String == "Alicia" && $0.json["revision"] as? Int == 0 })
        #expect(messages.map { $0.json["id"] as? Int64 } == [1, 3, 2, 3])
        // Untracked driving given to her afterwards: one line, hers.
        let untracked = try #require(try store.untrackedDriving().first)
        _ = try store.assignTrips([.untracked(untracked.id)], to: family.alice)
        #expect(try TripStoreBookTests.costs(store, 2) == ["Bob": 1_156, "Alicia": 1_445])
        #expect(try store.splits()[2].shares.filter { $0.driverName == "Alicia" }.count == 1)
        try TripStoreBookTests.expectBooksAddUp(store)
        // The same name again changes nothing and publishes nothing.
        let pending = try store.outboxStatistics().pendingMessages
        _ = try store.renameDriver(named: "Alicia", to: "Alicia")
        #expect(try store.outboxStatistics().pendingMessages == pending)
    }

    @Test func aRemovedDriverIsBroughtBackWithTheirHistory() throws {
        let store = try TripStore(path: temporaryStorePath())
        let tag = TagIdentity.uid(try TagUID(parsing: "04:a2:2b:7a"))
        let id = try store.addDriver(name: "Anna", contact: "anna@example.org", tags: [tag], beacons: [])
        try store.connection.execute("""
            INSERT INTO runs (id) VALUES (1);
            INSERT INTO sessions (driver_id, driver_name, run_id, start_link_ms, start_utc_ms, end_utc_ms, end_reason, distance_m)
                VALUES (\(id.rawValue), 'Anna', 1, 0, 1000, 5000, 'departed', 3000);
            """)
        #expect(try store.removedDriver(named: "Anna") == nil, "a current driver is not a removed one")
        _ = try store.removeDriver(named: "Anna")
        let removed = try #require(try store.removedDriver(named: " ANNA "))
        #expect(removed.id == id)
        // Her old tag went to someone else meanwhile: bringing her back with it is refused, nothing changes.
        let ben = try store.addDriver(name: "Ben", tags: [tag], beacons: [])
        #expect(throws: StoreError.invalid("tag \(tag) is already bound to Ben")) {
            try store.restoreDriver(id, tags: [tag], beacons: [])
        }
        #expect(try store.drivers().map(\.id) == [ben])
        let beacon = try BeaconIdentity(spec: Self.anna)
        try store.restoreDriver(id, tags: [], beacons: [beacon])
        let anna = try #require(try store.driver(named: "anna"))
        #expect(anna.id == id && anna.contact == "anna@example.org" && anna.beacons == [beacon] && !anna.removed)
        #expect(try store.sessions(driver: id).count == 1)
        #expect(throws: StoreError.notFound("no removed driver with id \(id.rawValue)")) {
            try store.restoreDriver(id, tags: [], beacons: [])
        }
        // A second removed Anna while a current one exists cannot come back under the same name.
        _ = try store.removeDriver(named: "Anna")
        let other = try store.addDriver(name: "Anna", tags: [], beacons: [])
        _ = try store.removeDriver(named: "Anna")
        #expect(try store.removedDriver(named: "anna")?.id == other, "the latest removed Anna")
        try store.restoreDriver(other, tags: [], beacons: [])
        #expect(throws: StoreError.invalid("a driver named 'Anna' already exists")) { try store.restoreDriver(id, tags: [], beacons: []) }
    }

    @Test func bindingSaysWhoOwnsATagOrBeacon() throws {
        let store = try TripStore(path: temporaryStorePath())
        let anna = try store.addDriver(name: "Anna", tags: [.uid(try TagUID(parsing: "04A22B7A"))], beacons: [try BeaconIdentity(spec: Self.anna)])
        let ben = try store.addDriver(name: "Ben", tags: [], beacons: [])
        #expect(throws: StoreError.invalid("tag uid:04:A2:2B:7A is already bound to Anna")) { try store.bind(tag: .uid(try TagUID(parsing: "04a22b7a")), to: ben) }
        #expect(throws: StoreError.invalid("beacon \(Self.anna) is already bound to Anna")) { try store.bind(beacon: try BeaconIdentity(spec: Self.anna), to: ben) }
        #expect(try store.bind(tag: .uid(try TagUID(parsing: "04A22B7A")), to: anna) == false)
        #expect(try store.bind(tag: .driver(Self.uri), to: ben) == true)
        #expect(try store.drivers().last?.uuid == Self.uri)
        #expect(try store.driverUUID(for: ben) { Issue.record("must reuse the bound URI"); return Self.uri } == Self.uri)
        let made = UUID128("00000000-0000-4000-8000-000000000001")!
        #expect(try store.driverUUID(for: anna) { made } == made)
        #expect(try store.driverUUID(for: anna) { Self.uri } == made)
    }

    @Test func theMigrationKeepsDriversTagsAndSessionLinks() throws {
        let path = temporaryStorePath()
        let before = StoreSchema.migrations.prefix { $0.name != "2026-12-06-provisioning" }
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA foreign_keys = ON")
            try Migrator(Array(before)).migrate(connection)
            try connection.execute("""
                INSERT INTO drivers (id, name, contact) VALUES (1, 'Alice', 'a@x'), (2, 'Bob', NULL);
                INSERT INTO driver_tags (driver_id, kind, value) VALUES (2, 'driver', '3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8');
                INSERT INTO driver_beacons (driver_id, spec) VALUES (1, '\(Self.anna)');
                INSERT INTO runs (id) VALUES (1);
                INSERT INTO sessions (id, driver_id, driver_name, run_id, start_link_ms) VALUES (1, 1, 'Alice', 1, 0);
                """)
        }
        let store = try TripStore(path: path)
        let drivers = try store.drivers()
        #expect(drivers.map(\.name) == ["Alice", "Bob"])
        #expect(drivers.map(\.contact) == ["a@x", nil])
        #expect(drivers.map(\.uuid) == [nil, Self.uri])
        #expect(drivers.first?.beacons.map(\.spec) == [Self.anna])
        #expect(try store.connection.scalarInt("SELECT driver_id FROM sessions WHERE id = 1") == 1)
        #expect(try store.connection.query("PRAGMA foreign_key_check") { $0.text(0) ?? "" }.isEmpty)
        #expect(try store.connection.pragmaInt("foreign_keys") == 1)
        // Deleting a driver row still cascades to their tags: the foreign keys point at the rebuilt table.
        try store.connection.execute("DELETE FROM drivers WHERE id = 2")
        #expect(try store.connection.scalarInt("SELECT COUNT(*) FROM driver_tags") == 0)
    }

    @Test func vehicleCurrenciesComeFromTheTable() {
        #expect(VehicleProfile.minorDigits(ofCurrency: "eur") == 2)
        #expect(VehicleProfile.minorDigits(ofCurrency: "JPY") == 0)
        #expect(VehicleProfile.minorDigits(ofCurrency: "KWD") == 3)
        #expect(VehicleProfile.minorDigits(ofCurrency: "XYZ") == nil)
    }
}
