import FairFuelSQLite

extension StoreSchema {
    /// Drivers can be removed without rewriting history: a removed driver's row stays (sessions
    /// and refuel shares point at it) with `removed = 1`, and only current drivers need unique
    /// names. `uuid` is the driver's id in `fairfuel://driver/<uuid>` tags. SQLite cannot drop a
    /// UNIQUE constraint, so the table is rebuilt with foreign keys off (outside a transaction).
    static let provisioning = Migration("2026-12-06-provisioning", inTransaction: false) { connection in
        let columns = try connection.query("PRAGMA table_info(drivers)") { $0.text(1) ?? "" }
        // A power cut after the rebuild committed and before the migration was recorded: done already.
        guard !columns.contains("removed") else { return }
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute(
            """
            CREATE TABLE drivers_rebuilt (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL COLLATE NOCASE,
                contact TEXT,
                -- lower-case 8-4-4-4-12; NULL until a driver URI is written or bound
                uuid TEXT UNIQUE,
                removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1))
            );
            INSERT INTO drivers_rebuilt (id, name, contact, uuid)
                SELECT d.id, d.name, d.contact,
                       (SELECT t.value FROM driver_tags t WHERE t.driver_id = d.id AND t.kind = 'driver' ORDER BY t.id LIMIT 1)
                FROM drivers d;
            DROP TABLE drivers;
            ALTER TABLE drivers_rebuilt RENAME TO drivers;
            CREATE UNIQUE INDEX drivers_current_name ON drivers (name) WHERE removed = 0;
            """)
        let broken = try connection.query("PRAGMA foreign_key_check") { $0.text(0) ?? "" }
        guard broken.isEmpty else {
            try connection.execute("ROLLBACK")
            throw StoreError.invalid("rebuilding drivers would break references from \(broken.joined(separator: ", "))")
        }
        try connection.execute("COMMIT")
    }
}
