import FairFuelSQLite

extension StoreSchema {
    /// What the car learns over its life (`DriverFactorLearner`): one row per fit, each time the
    /// full-to-full periods change, with its held-out errors and whether it was adopted, and
    /// each party's factor (driver_id NULL: untracked driving). The newest fit is the one bills use.
    static let consumptionFits = Migration(
        "2026-12-30-consumption-fits",
        """
            CREATE TABLE consumption_fits (
                id INTEGER PRIMARY KEY,
                at_utc_ms INTEGER NOT NULL,
                periods_used INTEGER NOT NULL,
                periods_needed INTEGER NOT NULL,
                outcome TEXT NOT NULL CHECK (outcome IN ('adopted', 'not_better', 'too_few_periods')),
                ridge REAL NOT NULL,
                held_out_error_learned REAL,
                held_out_error_one_factor REAL
            );
            CREATE TABLE consumption_fit_factors (
                fit_id INTEGER NOT NULL REFERENCES consumption_fits(id) ON DELETE CASCADE,
                driver_id INTEGER,
                factor REAL NOT NULL
            );
            CREATE INDEX consumption_fit_factors_by_fit ON consumption_fit_factors (fit_id);
            """)
}
