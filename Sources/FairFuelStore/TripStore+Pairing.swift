import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

extension TripStore {
    /// The USB pull's pairing secret as 32 lower-case hex digits, or nil before provisioning.
    public func pairingSecretHex() throws(StoreError) -> String? {
        try wrap { () throws(SQLiteError) in try connection.scalarText("SELECT secret_hex FROM pairing WHERE id = 1") }
    }

    /// Sets (or replaces) the pairing secret; every laptop paired before must learn the new one.
    public func setPairingSecret(hex: String, createdUTCMs: Int64?) throws(StoreError) {
        let lower = hex.lowercased()
        guard lower.utf8.count == 32, lower.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .invalid("a pairing secret is 32 hex digits")
        }
        try write(durable: true) {
            try connection.run(
                "INSERT INTO pairing (id, secret_hex, created_utc_ms) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET secret_hex = excluded.secret_hex, created_utc_ms = excluded.created_utc_ms",
                .text(lower), .optional(createdUTCMs))
        }
    }
}

extension TripStore {
    /// Up to `limit` closed sessions with an id above `afterID`, by id: the USB pull's pages.
    /// An open session is left out until it closes, so that a pulled trip never changes.
    public func closedSessions(afterID: Int64, sinceUTCMs: Int64?, limit: Int) throws(StoreError) -> [StoredSession] {
        try wrap { () throws(SQLiteError) in
            try connection.query(
                """
                \(StoredSession.selectColumns)
                WHERE id > ?1 AND end_reason IS NOT NULL AND (?2 IS NULL OR start_utc_ms >= ?2)
                ORDER BY id LIMIT ?3
                """,
                .integer(afterID), .optional(sinceUTCMs), .integer(Int64(limit))
            ) { row in StoredSession(row: row) }
        }
    }
}
