import FairFuelCore
import FairFuelSQLite

extension StoreSchema {
    /// `vehicle.units` takes `uk` (miles, imperial gallons, UK mpg) beside `metric` and `imperial`
    /// (US gallons). SQLite cannot alter a CHECK, so the vehicle table is rebuilt as it stands
    /// (every column later migrations added) with the wider CHECK, foreign keys off and outside a
    /// transaction, as `stableIDs` rebuilds its tables. A table that takes `uk` already is left
    /// alone: the step can run again after a power cut between its commit and the migration's record.
    static let ukUnits = Migration("2026-12-26-uk-units", inTransaction: false) { connection in
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try rebuildVehicleTakingUK(connection)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    static let unitsCheckBeforeUK = "CHECK (units IN ('metric', 'imperial'))"
    static let unitsCheckWithUK = "CHECK (units IN ('metric', 'imperial', 'uk'))"

    private static func rebuildVehicleTakingUK(_ connection: SQLiteConnection) throws {
        guard let definition = try connection.scalarText("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'vehicle'") else {
            throw StoreError.invalid("the store has no vehicle table")
        }
        guard !definition.containsText(unitsCheckWithUK) else { return }
        let header = "CREATE TABLE vehicle ("
        guard definition.hasPrefix(header), let check = definition.firstRange(ofText: unitsCheckBeforeUK) else {
            throw StoreError.invalid("the vehicle table's definition is not the one this migration knows: \(definition)")
        }
        var newDefinition = definition
        newDefinition.replaceSubrange(check, with: unitsCheckWithUK)
        newDefinition.replaceSubrange(
            newDefinition.startIndex..<newDefinition.index(newDefinition.startIndex, offsetBy: header.count),
            with: "CREATE TABLE vehicle_rebuilt (")
        let indexes = try connection.query(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'vehicle' AND sql IS NOT NULL ORDER BY name"
        ) { $0.text(0) ?? "" }
        try connection.execute(newDefinition)
        try connection.execute("INSERT INTO vehicle_rebuilt SELECT * FROM vehicle")
        try connection.execute("DROP TABLE vehicle")
        try connection.execute("ALTER TABLE vehicle_rebuilt RENAME TO vehicle")
        for index in indexes { try connection.execute(index) }
    }
}
