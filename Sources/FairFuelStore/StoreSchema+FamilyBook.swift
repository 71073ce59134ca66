import FairFuelSQLite

extension StoreSchema {
    /// The family's book: each bill keeps the untracked policy it is split under (a later
    /// `vehicle set --untracked` applies from a date, not to history) and when it was settled
    /// (a settled bill never changes) and which share is the fuel burnt before tracking
    /// began (the baseline fill-up's); a session made from untracked driving by `trips assign`
    /// remembers where it came from; the vehicle gets a unique id so that `family` joins cars
    /// by it, not by name. Older bills take the vehicle's policy of the day of the upgrade.
    static let familyBook = Migration(
        "2026-12-20-family-book",
        """
        ALTER TABLE refuels ADD COLUMN untracked_policy TEXT CHECK (untracked_policy IN ('owner', 'pro_rata'));
        UPDATE refuels SET untracked_policy = (SELECT untracked_policy FROM vehicle WHERE id = 1);
        ALTER TABLE refuels ADD COLUMN settled_utc_ms INTEGER;
        ALTER TABLE refuel_shares ADD COLUMN before_tracking INTEGER NOT NULL DEFAULT 0 CHECK (before_tracking IN (0, 1));
        ALTER TABLE sessions ADD COLUMN assigned_from_untracked INTEGER;
        ALTER TABLE vehicle ADD COLUMN uid TEXT;
        UPDATE vehicle SET uid = (SELECT lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-'
                                               || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12))
                                  FROM (SELECT hex(randomblob(16)) AS h));
        """)
}
