import FairFuelSQLite

extension StoreSchema {
    /// The uplink's outbox (docs/mqtt.md): messages written in the same transaction as their
    /// record, deleted on PUBACK. AUTOINCREMENT: a message id is never reused, even after the
    /// newest rows were sent, so a consumer recognises a resend by its id.
    static let outbox = Migration(
        "2026-12-08-outbox",
        """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                topic TEXT NOT NULL,
                payload BLOB NOT NULL,
                retained INTEGER NOT NULL CHECK (retained IN (0, 1)),
                -- 'status' rows are never dropped for the budget; a newer one replaces an unsent older one.
                kind TEXT NOT NULL CHECK (kind IN ('record', 'status')),
                -- The trip, refuel or split the message is about (its id in the store), when any.
                record_id INTEGER
            );
            -- What the budget made the outbox drop, and what went out, over the store's life.
            CREATE TABLE outbox_counters (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                sent_messages INTEGER NOT NULL DEFAULT 0,
                dropped_messages INTEGER NOT NULL DEFAULT 0,
                dropped_bytes INTEGER NOT NULL DEFAULT 0,
                last_dropped_id INTEGER
            );
            INSERT INTO outbox_counters (id) VALUES (1);
            -- The vehicle's id under fairfuel/<vehicle-id>/: random, 32 lower-case hex digits,
            -- made once; never the display name (which the family may change).
            ALTER TABLE vehicle ADD COLUMN uplink_id TEXT;
            UPDATE vehicle SET uplink_id = lower(hex(randomblob(16))) WHERE id = 1;
            """)
}
