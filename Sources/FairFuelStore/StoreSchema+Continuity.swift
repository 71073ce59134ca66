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

extension StoreSchema {
    /// A session that goes on without a tap keeps in its row what it had measured when the car
    /// moved off; this says when that was, so that a restart later in the trip rebuilds only the
    /// track after it and counts the stop before as the live meter does (duration, not idle).
    static let tripCheckpoints = Migration(
        "2026-12-21-trip-checkpoints",
        """
            -- UTC up to which the row's totals measure an open session (the car moving off after a
            -- stop or a restart); its track after that measures the rest. NULL: the whole track does.
            ALTER TABLE sessions ADD COLUMN measured_until_utc_ms INTEGER;
            """)
}
