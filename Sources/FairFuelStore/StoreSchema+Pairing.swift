import FairFuelSQLite

extension StoreSchema {
    /// The USB pull's pairing secret (docs/usb-pull-protocol.md). The secret itself is kept,
    /// not a hash: HMAC verification needs the key, and a hash would only become the key.
    /// The file is readable by the service's user alone (StateDirectory, mode 0700).
    static let pairing = Migration(
        "2026-12-06-pairing",
        """
            -- One row at most: secret_hex is 32 lower-case hex digits; created_utc_ms from the clock
            -- of the machine that provisioned it (informational only).
            CREATE TABLE pairing (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                secret_hex TEXT NOT NULL CHECK (length(secret_hex) = 32),
                created_utc_ms INTEGER
            );
            """)
}
