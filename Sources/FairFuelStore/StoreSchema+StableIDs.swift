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
        try rebuildingTables(connection) {
            try rebuildWithAutoincrement("sessions", publishedAs: ["trip"], connection)
            try rebuildWithAutoincrement("refuels", publishedAs: ["refuel", "split"], connection)
            try rebuildWithAutoincrement("untracked_driving", publishedAs: [], connection)
            let broken = try connection.query("PRAGMA foreign_key_check") { $0.text(0) ?? "" }
            guard broken.isEmpty else {
                throw StoreError.invalid("giving ids that are never reused would break references from \(broken.joined(separator: ", "))")
            }
        }
    }

    /// Rebuilds `table` (whose first column is `id INTEGER PRIMARY KEY`) with AUTOINCREMENT,
    /// keeping its rows, ids and indexes. A table that has it already is left alone, so the step
    /// can run again after a power cut between its commit and the migration's record.
    private static func rebuildWithAutoincrement(_ table: String, publishedAs kinds: [String], _ connection: SQLiteConnection) throws {
        let rebuilt = try rebuildTable(table, connection) { definition in
            guard !definition.containsText("AUTOINCREMENT") else { return nil }
            guard let keyRange = definition.firstRange(ofText: "id INTEGER PRIMARY KEY,") else {
                throw StoreError.invalid("\(table)'s definition is not the one this migration knows: \(definition)")
            }
            var newDefinition = definition
            newDefinition.replaceSubrange(keyRange, with: "id INTEGER PRIMARY KEY AUTOINCREMENT,")
            return newDefinition
        }
        guard rebuilt else { return }
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
