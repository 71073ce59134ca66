import FairFuelSQLite

extension StoreSchema {
    /// Which capture a replay run read, so that the same capture is not replayed into a store
    /// twice by mistake (its trips, stored twice, would be billed twice).
    static let runCaptures = Migration(
        "2026-12-24-run-captures",
        """
        ALTER TABLE runs ADD COLUMN capture_fingerprint TEXT;
        CREATE INDEX runs_by_capture ON runs (capture_fingerprint) WHERE capture_fingerprint IS NOT NULL;
        """)
}
