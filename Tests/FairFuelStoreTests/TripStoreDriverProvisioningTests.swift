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
