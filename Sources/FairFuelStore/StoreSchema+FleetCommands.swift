import FairFuelSQLite

extension StoreSchema {
    /// Commands down from the hub (docs/mqtt.md, "Commands"): the ids applied, so that a command
    /// delivered twice is applied once, kept for `TripStore.fleetCommandRetentionMs`; and each
    /// record's last outbox message id, so that `resend` can send what a hub missed since one.
    static let fleetCommands = Migration(
        "2026-12-28-fleet-commands",
        """
            CREATE TABLE fleet_commands_applied (
                id TEXT PRIMARY KEY,
                applied_utc_ms INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX fleet_commands_applied_by_time ON fleet_commands_applied (applied_utc_ms);
            -- NULL for records published before this migration: a resend includes them.
            ALTER TABLE outbox_revisions ADD COLUMN last_message_id INTEGER;
            """)
}
