import FairFuelCore
import FairFuelSQLite

extension StoreSchema {
    /// Runs a migration that rebuilds tables: foreign keys off (which SQLite only honours outside a
    /// transaction, hence `inTransaction: false` migrations), then `body` in one IMMEDIATE
    /// transaction, rolled back whole if it throws.
    static func rebuildingTables(_ connection: SQLiteConnection, _ body: () throws -> Void) throws {
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Rebuilds `table` as `edit` makes its definition, keeping its rows, ids and indexes (SQLite
    /// cannot alter a CHECK or add AUTOINCREMENT). `edit` gets the table's `CREATE TABLE` text and
    /// returns the new one, or nil when the table is already as wanted (a step run again after a
    /// power cut between its commit and the migration's record). Returns whether it rebuilt.
    @discardableResult
    static func rebuildTable(_ table: String, _ connection: SQLiteConnection, edit: (String) throws -> String?) throws -> Bool {
        guard
            let definition = try connection.scalarText(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", .text(table))
        else { throw StoreError.invalid("the store has no \(table) table") }
        // Asked first: a table rebuilt before is named quoted in its text (`CREATE TABLE "vehicle"`).
        guard var newDefinition = try edit(definition) else { return false }
        let header = "CREATE TABLE \(table) ("
        guard newDefinition.hasPrefix(header) else {
            throw StoreError.invalid("\(table)'s definition is not the one this migration knows: \(definition)")
        }
        let rebuilt = "\(table)_rebuilt"
        newDefinition.replaceSubrange(
            newDefinition.startIndex..<newDefinition.index(newDefinition.startIndex, offsetBy: header.count),
            with: "CREATE TABLE \(rebuilt) (")
        let indexes = try connection.query(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name", .text(table)
        ) { $0.text(0) ?? "" }
        // An AUTOINCREMENT table's counter is past ids no row holds any more (deleted, published):
        // the copy would start it at the largest id kept, so it is put back.
        let hasSequence = try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_sequence'") == 1
        let counter = hasSequence ? try connection.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = ?", .text(table)) : nil
        try connection.execute(newDefinition)
        try connection.execute("INSERT INTO \(rebuilt) SELECT * FROM \(table)")
        try connection.execute("DROP TABLE \(table)")
        try connection.execute("ALTER TABLE \(rebuilt) RENAME TO \(table)")
        if let counter {
            try connection.run("DELETE FROM sqlite_sequence WHERE name = ?", .text(table))
            try connection.run("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", .text(table), .integer(counter))
        }
        for index in indexes { try connection.execute(index) }
        return true
    }
}
