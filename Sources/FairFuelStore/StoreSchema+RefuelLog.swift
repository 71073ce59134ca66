import FairFuelSQLite

extension StoreSchema {
    /// The fuel log: when each refuel was entered and the currency its bill is in (a later
    /// `vehicle set --currency` must not silently re-denominate old bills). Older rows take
    /// the vehicle's currency of the day of the upgrade; their entry time stays unknown (NULL).
    static let refuelLog = Migration(
        "2026-12-06-refuel-log",
        """
        ALTER TABLE refuels ADD COLUMN entered_utc_ms INTEGER;
        ALTER TABLE refuels ADD COLUMN currency TEXT;
        UPDATE refuels SET currency = (SELECT currency FROM vehicle WHERE id = 1);
        CREATE INDEX refuel_shares_by_refuel ON refuel_shares (refuel_id);
        """)
}
