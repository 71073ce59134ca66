import FairFuelSQLite

extension StoreSchema {
    /// Trips that go on without a tap (README, "Continuity"): how often a session was taken up
    /// again automatically, which session a new one continues, and who may have driven
    /// untracked driving.
    static let continuity = Migration(
        "2026-12-07-continuity",
        """
            -- Automatic resumptions of the session (after a restart, or a short stop without a tap).
            ALTER TABLE sessions ADD COLUMN resumed_count INTEGER NOT NULL DEFAULT 0;
            -- A session started without a tap after a park: the session whose driver came back.
            ALTER TABLE sessions ADD COLUMN continued_from INTEGER REFERENCES sessions(id) ON DELETE SET NULL;
            -- Comma-separated driver ids: the last driver of a trip it may continue, fobs aboard.
            -- Candidates only; the family confirms one (fairfuel trips assign).
            ALTER TABLE untracked_driving ADD COLUMN candidate_driver_ids TEXT;
            CREATE INDEX sessions_open ON sessions (id) WHERE end_reason IS NULL;
            """)
}
