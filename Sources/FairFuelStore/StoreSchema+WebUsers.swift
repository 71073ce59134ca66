import FairFuelSQLite

extension StoreSchema {
    /// The family's web app: who may log in (`fairfuel web user add`) with a bcrypt hash, never the
    /// password, and the role that decides what they may change; a refuel's receipt photo (its
    /// metadata stripped before it is stored), which goes with its refuel.
    static let webUsers = Migration(
        "2026-12-30-web-users",
        """
        CREATE TABLE web_users (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            role TEXT NOT NULL CHECK (role IN ('family', 'driver')),
            password_hash TEXT NOT NULL,
            created_utc_ms INTEGER NOT NULL
        );
        CREATE TABLE refuel_receipts (
            refuel_id INTEGER PRIMARY KEY REFERENCES refuels(id) ON DELETE CASCADE,
            media_type TEXT NOT NULL,
            image BLOB NOT NULL
        );
        """)
}
