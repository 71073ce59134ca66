import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// The family book's queries: the fuel log, each bill's shares, and the sessions' fuel over
/// time that the bills are split by. The rules that write the book stay with `TripStore`
/// (`TripStore+Refuels.swift`, `TripStore+Book.swift`), which forwards here.
public struct BookRepository {
    /// Refuels closer than this to a recorded one are the same refuel entered twice.
    static let duplicateWindowMs: Int64 = 60_000
    /// Sessions that started at or before a window's start and are read in case they drive into it.
    static let sessionsStartedBeforeAWindow = 4

    let database: StoreDatabase

    init(database: StoreDatabase) {
        self.database = database
    }

    private var connection: SQLiteConnection { database.connection }

    /// The refuel recorded within `duplicateWindowMs` of `atUTCMs`; nil when there is none.
    /// `excluding`: the refuel being edited.
    func refuelRecorded(near atUTCMs: Int64, excluding: Int64?) throws(StoreError) -> Int64? {
        do {
            return try connection.scalarInt(
                "SELECT id FROM refuels WHERE at_utc_ms > ?1 - ?2 AND at_utc_ms < ?1 + ?2 AND (?3 IS NULL OR id != ?3) LIMIT 1",
                .integer(atUTCMs), .integer(Self.duplicateWindowMs), .optional(excluding))
        } catch { throw .sqlite(error) }
    }

    /// The fuel log, oldest first.
    func refuels() throws(StoreError) -> [(id: Int64, refuel: RefuelInput)] {
        do {
            return try connection.query(
                """
                SELECT id, at_utc_ms, liters, cost_minor, full_tank, odometer_km, fuel_type, station, note, currency, entered_utc_ms,
                       untracked_policy, settled_utc_ms, baseline
                FROM refuels ORDER BY at_utc_ms
                """
            ) { row in
                (row.int64(0), RefuelInput(
                    atUTCMs: row.int64(1), liters: row.double(2), cost: MinorUnits(row.int64(3)), fullTank: row.int(4) == 1,
                    odometerKilometers: row.optionalDouble(5), fuelType: row.text(6), station: row.text(7), note: row.text(8),
                    currency: row.text(9), enteredUTCMs: row.optionalInt64(10),
                    untrackedPolicy: row.text(11).flatMap(UntrackedPolicy.init(rawValue:)), settledUTCMs: row.optionalInt64(12),
                    baseline: row.int(13) == 1))
            }
        } catch { throw .sqlite(error) }
    }

    /// Every refuel in time order with its shares (a baseline mark has none).
    func splits() throws(StoreError) -> [RefuelSplit] {
        let all = try refuels()
        do {
            let rules = try Dictionary(
                connection.query("SELECT id, split_rule FROM refuels") { ($0.int64(0), SplitRule(rawValue: $0.text(1) ?? "")) },
                uniquingKeysWith: { first, _ in first })
            return try all.map { (id, refuel) throws(SQLiteError) in
                RefuelSplit(id: id, refuel: refuel, shares: try shares(ofRefuel: id), rule: rules[id] ?? nil)
            }
        } catch { throw .sqlite(error) }
    }

    /// The stored shares of one bill, in the order `splits()` gives them.
    func shares(ofRefuel id: Int64) throws(SQLiteError) -> [RefuelSplit.Share] {
        try connection.query(
            """
            SELECT driver_id, driver_name, fuel_l, cost_minor, before_tracking FROM refuel_shares WHERE refuel_id = ?
            ORDER BY driver_id IS NULL, driver_id
            """,
            .integer(id)
        ) { row in
            RefuelSplit.Share(
                driver: row.optionalInt64(0).map(DriverID.init), driverName: row.text(1), fuelLiters: row.double(2),
                cost: MinorUnits(row.int64(3)), beforeTracking: row.int(4) == 1)
        }
    }

    /// When a bill was settled (nil: open); an unknown id is `notFound`.
    func settledUTCMs(ofRefuel id: Int64) throws -> Int64? {
        let rows = try connection.query("SELECT settled_utc_ms FROM refuels WHERE id = ?", .integer(id)) { $0.optionalInt64(0) }
        guard let state = rows.first else { throw StoreError.notFound("no refuel with id \(id)") }
        return state
    }

    /// Marks a bill settled at `atUTCMs`, or open again (nil), inside the caller's transaction.
    func setSettled(refuel id: Int64, atUTCMs: Int64?) throws(SQLiteError) {
        try connection.run("UPDATE refuels SET settled_utc_ms = ? WHERE id = ?", .optional(atUTCMs), .integer(id))
    }

    /// Each session's fuel as a running total over UTC time (`TripStore.fuelTraces`).
    func fuelTraces(session only: Int64?, alsoCutAt extraCuts: [Int64], reachingPast since: Int64?) throws -> [FuelTrace] {
        let columns = "id, COALESCE(driver_id, 0), driver_name, start_utc_ms, end_utc_ms, fuel_l, distance_m, fuel_scale"
        let row = { (row: SQLiteStatement) in
            (row.int64(0), DriverID(row.int64(1)), row.text(2) ?? "", row.int64(3), row.optionalInt64(4), row.double(5), row.double(6),
             row.double(7))
        }
        let sessions = if let since {
            // One car's sessions follow one another, so only the last to start by `since` can run past it;
            // a few are read in case a clock step made two overlap. Both halves read sessions_by_start.
            try connection.query(
                """
                SELECT \(columns) FROM sessions WHERE driver_id IS NOT NULL AND start_utc_ms > ?1
                UNION ALL
                SELECT * FROM (SELECT \(columns) FROM sessions WHERE driver_id IS NOT NULL AND start_utc_ms <= ?1
                               ORDER BY start_utc_ms DESC LIMIT \(Self.sessionsStartedBeforeAWindow))
                """,
                .integer(since), row: row)
        } else {
            try connection.query(
                "SELECT \(columns) FROM sessions WHERE (?1 IS NULL AND driver_id IS NOT NULL OR id = ?1) AND start_utc_ms IS NOT NULL",
                .optional(only), row: row)
        }
        let refuelTimes = try (since.map { since throws(SQLiteError) in
            try connection.query("SELECT at_utc_ms FROM refuels WHERE at_utc_ms >= ? ORDER BY at_utc_ms", .integer(since)) { $0.int64(0) }
        } ?? connection.query("SELECT at_utc_ms FROM refuels ORDER BY at_utc_ms") { $0.int64(0) }) + extraCuts
        return try sessions.map { (id, driver, name, start, storedEnd, fuel, distance, scale) in
            let session = SessionID(id)
            var points: [(Int64, Double)] = [(start, 0)]
            var distances: [Double] = [0]
            var stored: [StoredTripPoint] = []
            if let span = try TrackChunkStorage.span(of: session, connection: connection) {
                let from = min(start, span.first)
                let to = max(storedEnd ?? span.last, span.last)
                if refuelTimes.contains(where: { $0 > from && $0 < to }) {
                    stored = try TrackChunkStorage.points(of: session, connection: connection)
                } else if let last = try TrackChunkStorage.lastPoint(of: session, connection: connection) {
                    stored = [last]
                }
            }
            for point in stored {
                points.append((point.utcMs, point.fuelLiters))
                distances.append(point.distanceMeters)
            }
            let end = storedEnd ?? stored.last?.utcMs
            if let end, end >= (points.last?.0 ?? start) {
                points.append((end, max(fuel, points.last?.1 ?? 0)))
                distances.append(max(distance, distances.last ?? 0))
            }
            return FuelTrace(driver: driver, driverName: name, points: points, distances: distances, fuelScale: scale)
        }
    }
}
