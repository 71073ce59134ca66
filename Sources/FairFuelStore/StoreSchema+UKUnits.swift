import FairFuelCore
import FairFuelSQLite

extension StoreSchema {
    /// `vehicle.units` takes `uk` (miles, imperial gallons, UK mpg) beside `metric` and `imperial`
    /// (US gallons). SQLite cannot alter a CHECK, so the vehicle table is rebuilt as it stands
    /// (every column later migrations added) with the wider CHECK, foreign keys off and outside a
    /// transaction, as `stableIDs` rebuilds its tables. A table that takes `uk` already is left
    /// alone: the step can run again after a power cut between its commit and the migration's record.
    static let ukUnits = Migration("2026-12-26-uk-units", inTransaction: false) { connection in
        try rebuildingTables(connection) {
            try rebuildTable("vehicle", connection) { definition in
                guard !definition.containsText(unitsCheckWithUK) else { return nil }
                guard let check = definition.firstRange(ofText: unitsCheckBeforeUK) else {
                    throw StoreError.invalid("the vehicle table's definition is not the one this migration knows: \(definition)")
                }
                var newDefinition = definition
                newDefinition.replaceSubrange(check, with: unitsCheckWithUK)
                return newDefinition
            }
        }
    }

    static let unitsCheckBeforeUK = "CHECK (units IN ('metric', 'imperial'))"
    static let unitsCheckWithUK = "CHECK (units IN ('metric', 'imperial', 'uk'))"
}
