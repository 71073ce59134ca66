import FairFuelSQLite

extension StoreSchema {
    /// The time zone the family reads their trips and bills in (an IANA name, `vehicle set
    /// --time-zone`); instants stay UTC in every table, only what is shown changes.
    static let vehicleTimeZone = Migration(
        "2026-12-22-vehicle-time-zone",
        """
            ALTER TABLE vehicle ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
            """)
}
