import FairFuelCore
import FairFuelSQLite

extension StoreSchema {
    /// The first bill charges the drivers their estimated fuel (`SplitRule.firstFill`), and a family
    /// may mark the moment the tank was known full (`refuels.baseline`: a log entry with no litres
    /// and no cost). `liters` took only more than 0, which SQLite cannot alter: the table is rebuilt
    /// as it stands with `CHECK (liters >= 0)`, foreign keys off and outside a transaction, as
    /// `ukUnits` rebuilds the vehicle; the store still refuses a refuel of 0 litres.
    ///
    /// Every bill records the rule it was split by (`split_rule`): the older stores' first bills
    /// say `all_before_tracking`, the rest `ordinary`. Opening the store then re-splits every unsettled
    /// bill once by today's rules (`TripStore.init`); a settled bill keeps its split and its rule.
    static let firstFillBill = Migration("2026-12-28-first-fill-bill", inTransaction: false) { connection in
        try rebuildingTables(connection) {
            try rebuildTable("refuels", connection) { definition in
                guard !definition.containsText(litersCheckWithZero) else { return nil }
                guard let check = definition.firstRange(ofText: litersCheckBeforeBaseline) else {
                    throw StoreError.invalid("the refuels table's definition is not the one this migration knows: \(definition)")
                }
                var newDefinition = definition
                newDefinition.replaceSubrange(check, with: litersCheckWithZero)
                // A table rebuilt before (`stableIDs`) is named quoted in its text.
                if let quoted = newDefinition.firstRange(ofText: "CREATE TABLE \"refuels\" (") {
                    newDefinition.replaceSubrange(quoted, with: "CREATE TABLE refuels (")
                }
                return newDefinition
            }
            let columns = try connection.query("PRAGMA table_info(refuels)") { $0.text(1) ?? "" }
            if !columns.contains("baseline") {
                try connection.execute(
                    "ALTER TABLE refuels ADD COLUMN baseline INTEGER NOT NULL DEFAULT 0 CHECK (baseline IN (0, 1))")
            }
            if !columns.contains("split_rule") {
                try connection.execute(
                    """
                    ALTER TABLE refuels ADD COLUMN split_rule TEXT NOT NULL DEFAULT 'ordinary'
                        CHECK (split_rule IN ('ordinary', 'first_fill', 'baseline', 'all_before_tracking'));
                    UPDATE refuels SET split_rule = 'all_before_tracking'
                        WHERE EXISTS (SELECT 1 FROM refuel_shares WHERE refuel_id = refuels.id AND before_tracking = 1);
                    """)
            }
        }
    }

    static let litersCheckBeforeBaseline = "liters REAL NOT NULL CHECK (liters > 0)"
    static let litersCheckWithZero = "liters REAL NOT NULL CHECK (liters >= 0)"
}
