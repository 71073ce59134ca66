import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// `StoreSchema.ukUnits`: the vehicle may read in UK units, on a new store and on one made with
/// the schema before it, whose vehicle row (every column later migrations added) is kept.
@Suite struct StoreUKUnitsTests {
    @Test func aNewStoreTakesUKUnitsAndStillRefusesOthers() throws {
        let store = try TripStore(path: temporaryStorePath())
        var vehicle = try store.vehicle()
        vehicle.units = "uk"
        #expect(vehicle.problems.isEmpty)
        try store.setVehicle(vehicle)
        #expect(try store.vehicle().units == "uk")
        // The CHECK still guards the column against anything else.
        #expect(throws: (any Error).self) { try store.connection.execute("UPDATE vehicle SET units = 'furlongs' WHERE id = 1") }
        vehicle.units = "furlongs"
        #expect(vehicle.problems.map(\.description) == [VehicleProfile.unitSystemsProblem])
    }

    @Test func anUpgradedStoreKeepsItsVehicleAndTakesUKUnits() throws {
        let path = temporaryStorePath()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA foreign_keys = ON")
            let before = StoreSchema.migrations.prefix { $0.name != StoreSchema.ukUnits.name }
            #expect(before.last?.name == StoreSchema.runCaptures.name)
            try Migrator(Array(before)).migrate(connection)
            #expect(throws: (any Error).self) { try connection.execute("UPDATE vehicle SET units = 'uk' WHERE id = 1") }
            try connection.execute(
                """
                UPDATE vehicle SET name = 'Golf', units = 'imperial', currency = 'GBP', time_zone = 'Europe/London', fuel_scale = 1.07,
                                   untracked_policy = 'pro_rata' WHERE id = 1;
                INSERT INTO drivers (id, name) VALUES (1, 'Alice');
                INSERT INTO refuels (id, at_utc_ms, liters, cost_minor, full_tank) VALUES (2, 7000, 20, 3000, 1);
                """)
        }
        let rowBefore = try Self.vehicleRow(SQLiteConnection(path: path))
        let store = try TripStore(path: path)
        let connection = store.connection
        #expect(try Migrator([]).applied(in: connection) == StoreSchema.migrations.map(\.name))
        let definition = try #require(try connection.scalarText("SELECT sql FROM sqlite_master WHERE name = 'vehicle'"))
        #expect(definition.contains(StoreSchema.unitsCheckWithUK), "\(definition)")
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE name = 'vehicle_rebuilt'") == 0)
        // Every column of the row as it was (the uid and uplink id later migrations made included).
        #expect(try Self.vehicleRow(connection) == rowBefore)
        let vehicle = try store.vehicle()
        #expect(vehicle.name == "Golf" && vehicle.units == "imperial" && vehicle.timeZone == "Europe/London" && vehicle.fuelScale == 1.07)
        #expect(try store.refuels().map(\.id) == [2])
        #expect(try connection.query("PRAGMA foreign_key_check") { $0.text(0) ?? "" }.isEmpty)
        #expect(try connection.pragmaInt("foreign_keys") == 1)
        var uk = vehicle
        uk.units = "uk"
        try store.setVehicle(uk)
        #expect(try store.vehicle().units == "uk")
    }

    /// A power cut after the rebuild committed and before the migration was recorded: the step
    /// runs again and changes nothing.
    @Test func theRebuildRunTwiceChangesNothing() throws {
        let store = try TripStore(path: temporaryStorePath())
        let connection = store.connection
        let schema = { try connection.query("SELECT name, sql FROM sqlite_master ORDER BY name") { "\($0.text(0) ?? ""): \($0.text(1) ?? "")" } }
        let (schemaBefore, rowBefore) = (try schema(), try Self.vehicleRow(connection))
        let body = try #require(StoreSchema.ukUnits.body)
        try body(connection)
        #expect(try schema() == schemaBefore)
        #expect(try Self.vehicleRow(connection) == rowBefore)
    }

    /// The vehicle row, every column, as text.
    static func vehicleRow(_ connection: SQLiteConnection) throws -> [String] {
        let columns = try connection.query("SELECT name FROM pragma_table_info('vehicle') ORDER BY cid") { $0.text(0) ?? "" }
        let select = "SELECT " + columns.map { "quote(\($0))" }.joined(separator: ", ") + " FROM vehicle"
        return try connection.query(select) { row in (0..<columns.count).map { "\(columns[$0])=\(row.text(Int32($0)) ?? "NULL")" } }.first ?? []
    }
}
