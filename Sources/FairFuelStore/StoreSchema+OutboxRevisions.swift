import FairFuelSQLite

extension StoreSchema {
    /// Each record's latest published revision per topic (docs/mqtt.md: 0 for the first
    /// publication, one more per correction), kept after the message itself was sent.
    static let outboxRevisions = Migration(
        "2026-12-10-outbox-revisions",
        """
            CREATE TABLE outbox_revisions (
                topic_kind TEXT NOT NULL CHECK (topic_kind IN ('trip', 'refuel', 'split')),
                record_id INTEGER NOT NULL,
                revision INTEGER NOT NULL,
                PRIMARY KEY (topic_kind, record_id)
            ) WITHOUT ROWID;
            """)
}
