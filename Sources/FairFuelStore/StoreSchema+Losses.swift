import FairFuelSQLite

extension StoreSchema {
    /// What the service could not keep (a full disk, a queue at its bound), counted per kind.
    /// The rows exist from the start so that counting later only rewrites a page in place:
    /// the cheapest write there is when the disk is full.
    static let losses = Migration(
        "2026-12-12-store-losses",
        """
        CREATE TABLE store_losses (
            kind TEXT PRIMARY KEY CHECK (kind IN ('session_start', 'session_end', 'untracked', 'trip_point', 'event')),
            count INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
            episodes INTEGER NOT NULL DEFAULT 0 CHECK (episodes >= 0)
        );
        INSERT INTO store_losses (kind) VALUES ('session_start'), ('session_end'), ('untracked'), ('trip_point'), ('event');
        """)
}
