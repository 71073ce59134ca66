import FairFuelCore
import FairFuelSQLite

extension StoreSchema {
    /// A trip's, a refuel's and a stretch of untracked driving's id is never given again. Without
    /// AUTOINCREMENT SQLite hands out the largest id plus one, so deleting the latest trip made the
    /// next one take its number: `trips assign u1 Ben` answered "now trip 22" for a drive other
    /// than the 22 just deleted, a pull folder took the new drive for a correction of the old, and
    /// the uplink sent it as a revision of a deleted record. SQLite cannot add AUTOINCREMENT to a
    /// table, so each is rebuilt as it stands (every column later migrations added, its indexes)
    /// with foreign keys off, outside a transaction, as `provisioning` rebuilt `drivers`.
    ///
    /// The counter starts past every id the store has used that it still knows of: the rows, and
    /// the ids the uplink has published (`outbox_revisions`), deleted rows included.
    static let stableIDs = Migration("2026-12-24-stable-ids", inTransaction: false) { connection in
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try rebuildWithAutoincrement("sessions", publishedAs: ["trip"], connection)
            try rebuildWithAutoincrement("refuels", publishedAs: ["refuel", "split"], connection)
            try rebuildWithAutoincrement("untracked_driving", publishedAs: [], connection)
            let broken = try connection.query("PRAGMA foreign_key_check") { $0.text(0) ?? "" }
            guard broken.isEmpty else {
                throw StoreError.invalid("giving ids that are never reused would break references from \(broken.joined(separator: ", "))")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Rebuilds `table` (whose first column is `id INTEGER PRIMARY KEY`) with AUTOINCREMENT,
    /// keeping its rows, ids and indexes. A table that has it already is left alone, so the step
    /// can run again after a power cut between its commit and the migration's record.
    private static func rebuildWithAutoincrement(_ table: String, publishedAs kinds: [String], _ connection: SQLiteConnection) throws {
        guard
            let definition = try connection.scalarText(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", .text(table))
        else { throw StoreError.invalid("the store has no \(table) table") }
        guard !definition.containsText("AUTOINCREMENT") else { return }
        let header = "CREATE TABLE \(table) ("
        let key = "id INTEGER PRIMARY KEY,"
        guard definition.hasPrefix(header), let keyRange = definition.firstRange(ofText: key) else {
            throw StoreError.invalid("\(table)'s definition is not the one this migration knows: \(definition)")
        }
        let rebuilt = "\(table)_rebuilt"
        var newDefinition = definition
        newDefinition.replaceSubrange(keyRange, with: "id INTEGER PRIMARY KEY AUTOINCREMENT,")
        newDefinition.replaceSubrange(
            newDefinition.startIndex..<newDefinition.index(newDefinition.startIndex, offsetBy: header.count),
            with: "CREATE TABLE \(rebuilt) (")
        let indexes = try connection.query(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name", .text(table)
        ) { $0.text(0) ?? "" }
        try connection.execute(newDefinition)
        try connection.execute("INSERT INTO \(rebuilt) SELECT * FROM \(table)")
        try connection.execute("DROP TABLE \(table)")
        try connection.execute("ALTER TABLE \(rebuilt) RENAME TO \(table)")
        for index in indexes { try connection.execute(index) }
        var used = try connection.scalarInt("SELECT COALESCE(MAX(id), 0) FROM \(table)") ?? 0
        for kind in kinds {
            let published = try connection.scalarInt(
                "SELECT COALESCE(MAX(record_id), 0) FROM outbox_revisions WHERE topic_kind = ?", .text(kind)) ?? 0
            used = max(used, published)
        }
        try connection.run("DELETE FROM sqlite_sequence WHERE name = ?", .text(table))
        try connection.run("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", .text(table), .integer(used))
    }
}
