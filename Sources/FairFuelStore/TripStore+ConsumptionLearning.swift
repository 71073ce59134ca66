import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// A fit of the car's drivers' factors, as the store keeps it.
public struct LearnedConsumption: Sendable, Equatable {
    /// The full fill that ended the newest period the fit saw (UTC ms).
    public var atUTCMs: Int64
    public var fit: DriverFactorFit
    /// The names of the drivers in `fit.factors` (a removed driver's is missing).
    public var driverNames: [DriverID: String]

    public init(atUTCMs: Int64, fit: DriverFactorFit, driverNames: [DriverID: String]) {
        self.atUTCMs = atUTCMs
        self.fit = fit
        self.driverNames = driverNames
    }
}

extension TripStore {
    /// How many fits the history keeps (oldest dropped first): a few years of full tanks.
    public static let consumptionFitCapacity = 200

    /// The fits, oldest first (at most the last `limit`); the newest is the one bills use.
    public func consumptionFits(limit: Int = consumptionFitCapacity) throws(StoreError) -> [LearnedConsumption] {
        try wrap { () throws(SQLiteError) in try consumptionFitsInTransaction(limit: limit) }
    }

    /// The newest fit; nil before the first full-to-full period.
    public func learnedConsumption() throws(StoreError) -> LearnedConsumption? {
        try consumptionFits(limit: 1).last
    }

    func consumptionFitsInTransaction(limit: Int) throws(SQLiteError) -> [LearnedConsumption] {
        let fits = try connection.query(
            """
            SELECT * FROM (SELECT id, at_utc_ms, periods_used, periods_needed, outcome, ridge, held_out_error_learned,
                                  held_out_error_one_factor
                           FROM consumption_fits ORDER BY id DESC LIMIT ?) ORDER BY id
            """,
            .int(max(0, limit))
        ) { row in
            (id: row.int64(0), at: row.int64(1), fit: DriverFactorFit(
                outcome: DriverFactorFit.Outcome(rawValue: row.text(4) ?? "") ?? .notBetter, periodsUsed: row.int(2),
                periodsNeeded: row.int(3), ridgeStrength: row.double(5), heldOutErrorLearned: row.optionalDouble(6),
                heldOutErrorOneFactor: row.optionalDouble(7)))
        }
        let names = Dictionary(
            try connection.query("SELECT id, name FROM drivers") { (DriverID($0.int64(0)), $0.text(1) ?? "") },
            uniquingKeysWith: { first, _ in first })
        return try fits.map { (id, at, fit) throws(SQLiteError) in
            var fit = fit
            var known: [DriverID: String] = [:]
            for (driver, factor) in try connection.query(
                "SELECT driver_id, factor FROM consumption_fit_factors WHERE fit_id = ?", .integer(id),
                row: { ($0.optionalInt64(0).map(DriverID.init), $0.double(1)) })
            {
                fit.factors[driver] = factor
                if let driver, let name = names[driver] { known[driver] = name }
            }
            return LearnedConsumption(atUTCMs: at, fit: fit, driverNames: known)
        }
    }

    /// Each party's factor open bills apply to its estimated litres: the newest fit's when adopted, else none.
    func appliedDriverFactorsInTransaction() throws(SQLiteError) -> [DriverID?: Double] {
        guard let newest = try consumptionFitsInTransaction(limit: 1).last, newest.fit.isAdopted else { return [:] }
        return newest.fit.factors
    }

    /// Fits the drivers' factors to every full-to-full period (`DriverFactorLearner`) and keeps the fit
    /// when it differs from the newest one kept. When the factors bills apply change, every open bill
    /// is re-split with them (a settled bill never moves), so the correction that caused it shows it.
    func refitDriverFactorsInTransaction(_ periods: [ConsumptionPeriod], lastFullUTCMs: Int64?) throws {
        let anyFit = try connection.scalarInt("SELECT COUNT(*) FROM consumption_fits") ?? 0 > 0
        guard let lastFullUTCMs, !periods.isEmpty || anyFit else { return }
        let fit = DriverFactorLearner().fit(periods)
        let newest = try consumptionFitsInTransaction(limit: 1).last
        if let newest, newest.atUTCMs == lastFullUTCMs, newest.fit == fit { return }
        try connection.run(
            """
            INSERT INTO consumption_fits (at_utc_ms, periods_used, periods_needed, outcome, ridge, held_out_error_learned,
                                          held_out_error_one_factor)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            .integer(lastFullUTCMs), .int(fit.periodsUsed), .int(fit.periodsNeeded), .text(fit.outcome.rawValue), .real(fit.ridgeStrength),
            .optional(fit.heldOutErrorLearned), .optional(fit.heldOutErrorOneFactor))
        let id = connection.lastInsertRowID
        for (driver, factor) in fit.factors {
            try connection.run(
                "INSERT INTO consumption_fit_factors (fit_id, driver_id, factor) VALUES (?, ?, ?)",
                .integer(id), .optional(driver?.rawValue), .real(factor))
        }
        try connection.run("DELETE FROM consumption_fits WHERE id <= ?", .integer(id - Int64(Self.consumptionFitCapacity)))
        try connection.run("DELETE FROM consumption_fit_factors WHERE fit_id NOT IN (SELECT id FROM consumption_fits)")
        let applied = { (fit: DriverFactorFit?) in fit.map { $0.isAdopted ? $0.factors : [:] } ?? [:] }
        if applied(newest?.fit) != applied(fit) { try recomputeSplitsInTransaction() }
    }
}
