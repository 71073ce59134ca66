import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite

extension StoreError {
    /// The refusal of a correction that would move settled bills' splits (no fuel is counted twice by it:
    /// a refuel inside a settled bill's period is refused on its own, `insideSettledPeriod`).
    static func touchesSettled(_ ids: [Int64]) -> StoreError { .needsConfirmation(.touchesSettled(bills: ids)) }

    /// The refusal of a refuel (`what`: entered, or moved) at `atUTCMs`, inside the period of the
    /// settled bill `settled`: that bill counts the fuel burnt since the refuel before it
    /// (`previousUTCMs`, nil: since tracking began), so a bill cut inside it would count some twice.
    static func insideSettledPeriod(
        _ what: String, atUTCMs: Int64, settled: Int64, settledBillUTCMs: Int64, previousUTCMs: Int64?
    ) -> StoreError {
        func utc(_ ms: Int64) -> String { UTCTimestamp(millisecondsSinceEpoch: ms).iso8601 }
        let since = previousUTCMs.map { "the refuel of \(utc($0))" } ?? "tracking began"
        return .invalid(
            "\(what) at \(utc(atUTCMs)) falls inside settled bill \(settled) (the refuel of \(utc(settledBillUTCMs)), which counts "
                + "the fuel burnt since \(since)): its bill would take fuel that settled bill \(settled) already counts, billing it twice; "
                + "refused even when confirmed, and nothing was changed. If the refuel is right, unsettle bill \(settled) first "
                + "(`fairfuel refuel unsettle \(settled)`: it is re-split from the data), then enter it and settle again")
    }
}

extension TripStore {
    /// Untracked driving, oldest first; bounds as for `sessions` (on its start).
    public func untrackedDriving(sinceUTCMs: Int64? = nil, untilUTCMs: Int64? = nil) throws(StoreError) -> [UntrackedDriving] {
        try wrap { () throws(SQLiteError) in
            try connection.query(
                """
                SELECT id, from_utc_ms, to_utc_ms, distance_m, fuel_l, candidate_driver_ids FROM untracked_driving
                WHERE (?1 IS NULL OR from_utc_ms >= ?1) AND (?2 IS NULL OR from_utc_ms < ?2) ORDER BY from_utc_ms, id
                """,
                .optional(sinceUTCMs), .optional(untilUTCMs)
            ) {
                UntrackedDriving(
                    id: $0.int64(0), fromUTCMs: $0.int64(1), toUTCMs: $0.int64(2), distanceMeters: $0.double(3), fuelLiters: $0.double(4),
                    candidates: Self.candidateIDs($0.text(5)))
            }
        }
    }

    /// Every trip, sessions and untracked driving, in the order `trips` lists them (by start).
    public func tripReferences() throws(StoreError) -> [TripReference] {
        try wrap { () throws(SQLiteError) in
            try connection.query(
                """
                SELECT 0, id, COALESCE(start_utc_ms, 0) AS t FROM sessions
                UNION ALL SELECT 1, id, from_utc_ms AS t FROM untracked_driving
                ORDER BY t, 1, 2
                """
            ) { $0.int(0) == 0 ? TripReference.session($0.int64(1)) : .untracked($0.int64(1)) }
        }
    }

    /// Runs a correction in one durable transaction: `body` changes the data, then every bill that is
    /// not settled is re-split and the calibration relearnt. A settled bill whose split the change
    /// would move refuses it (nothing changes) unless `force`, which keeps that bill as it is.
    @discardableResult
    public func rebook(force: Bool, _ body: () throws -> Void) throws(StoreError) -> BookChange {
        try write(durable: true) {
            let before = try splits()
            // What the data made of the settled bills before the change (nothing to compare without any).
            let anySettled = try connection.scalarInt("SELECT COUNT(*) FROM refuels WHERE settled_utc_ms IS NOT NULL") ?? 0 > 0
            let settledBefore = anySettled ? try recomputeSplitsInTransaction(dryRun: true) : [:]
            try body()
            let settledAfter = try recomputeSplitsInTransaction()
            let touched = settledAfter.keys.filter { settledBefore[$0] != nil && settledBefore[$0] != settledAfter[$0] }.sorted()
            if !touched.isEmpty && !force { throw StoreError.touchesSettled(touched) }
            try recomputeCalibrationInTransaction()
            let change = BookChange(before: before, after: try splits(), keptSettled: touched)
            try enqueueSplitMessages(change)
            return change
        }
    }

    /// Gives trips to `driver` (a current one): a session changes driver; untracked driving becomes
    /// a session of theirs (no positions, as it was stored). Every bill that moves is re-split.
    public func assignTrips(_ trips: [TripReference], to driver: DriverID, force: Bool = false) throws(StoreError)
        -> (change: BookChange, trips: [TripCorrection])
    {
        guard !trips.isEmpty else { throw .invalid("no trip to assign") }
        var corrections: [TripCorrection] = []
        let change = try rebook(force: force) {
            corrections.removeAll()  // a write retried after a full disk runs the body again
            guard let name = try connection.scalarText("SELECT name FROM drivers WHERE id = ? AND removed = 0", .integer(driver.rawValue))
            else { throw StoreError.notFound("no current driver with id \(driver.rawValue)") }
            for trip in trips {
                switch trip {
                case let .session(id):
                    let previous = try closedSession(id)
                    try connection.run(
                        "UPDATE sessions SET driver_id = ?, driver_name = ? WHERE id = ?", .integer(driver.rawValue), .text(name), .integer(id))
                    corrections.append(TripCorrection(trip: trip, session: id, untracked: [], driverName: name, previousDriverName: previous))
                case let .untracked(id):
                    let rows = try connection.query(
                        "SELECT from_utc_ms, to_utc_ms, distance_m, fuel_l, fuel_scale FROM untracked_driving WHERE id = ?", .integer(id)
                    ) { ($0.int64(0), $0.int64(1), $0.double(2), $0.double(3), $0.double(4)) }
                    guard let (from, to, meters, liters, scale) = rows.first else { throw StoreError.notFound("no trip \(trip)") }
                    try connection.run(
                        """
                        INSERT INTO sessions (driver_id, driver_name, run_id, start_link_ms, start_utc_ms, end_utc_ms, last_utc_ms,
                                              end_reason, distance_m, duration_ms, fuel_l, fuel_scale, assigned_from_untracked)
                        VALUES (?, ?, COALESCE((SELECT MAX(id) FROM runs), 0), 0, ?, ?, ?, 'manual', ?, ?, ?, ?, ?)
                        """,
                        .integer(driver.rawValue), .text(name), .integer(from), .integer(to), .integer(to), .real(meters),
                        .integer(max(0, to - from)), .real(liters), .real(scale), .integer(id))
                    let session = connection.lastInsertRowID
                    try connection.run("DELETE FROM untracked_driving WHERE id = ?", .integer(id))
                    corrections.append(TripCorrection(trip: trip, session: session, untracked: [], driverName: name, previousDriverName: nil))
                }
            }
            for correction in corrections { if let session = correction.session { try enqueueTripMessage(session: session) } }
        }
        return (change, corrections)
    }

    /// Deletes a trip: its session and track points go; its fuel stays in the books as untracked
    /// driving (cut at each refuel inside it, so every bill keeps its litres). Untracked driving
    /// itself cannot be deleted: it is fuel the bills paid for.
    public func deleteTrip(_ trip: TripReference, force: Bool = false) throws(StoreError) -> (change: BookChange, trip: TripCorrection) {
        guard case let .session(id) = trip else {
            throw .invalid("\(trip) is untracked driving: its fuel was paid for, so it stays in the books; give it to a driver with `fairfuel trips assign \(trip) NAME`")
        }
        var correction = TripCorrection(trip: trip, session: nil, untracked: [], driverName: nil, previousDriverName: nil)
        let change = try rebook(force: force) {
            correction.untracked.removeAll()  // a write retried after a full disk runs the body again
            correction.previousDriverName = try closedSession(id)
            guard let trace = try fuelTraces(session: id).first, let start = trace.points.first?.0, let end = trace.points.last?.0 else {
                throw StoreError.invalid("trip \(id) has no UTC time yet; it cannot be deleted before the first fix stamps it")
            }
            let scale = trace.fuelScale
            let cuts = try connection.query(
                "SELECT at_utc_ms FROM refuels WHERE at_utc_ms > ? AND at_utc_ms < ? ORDER BY at_utc_ms", .integer(start), .integer(end)
            ) { $0.int64(0) }
            var from = start
            for to in cuts + [end] {
                try connection.run(
                    "INSERT INTO untracked_driving (from_utc_ms, to_utc_ms, distance_m, fuel_l, fuel_scale) VALUES (?, ?, ?, ?, ?)",
                    .integer(from), .integer(to), .real(trace.distance(from: from, to: to)), .real(trace.fuel(from: from, to: to)),
                    .real(scale))
                correction.untracked.append(connection.lastInsertRowID)
                from = to
            }
            try connection.run("DELETE FROM track_chunks WHERE session_id = ?", .integer(id))
            try connection.run("DELETE FROM sessions WHERE id = ?", .integer(id))
            try enqueueTripDeletedMessage(session: id)
        }
        nextChunkSequence[id] = nil
        return (change, correction)
    }

    /// The driver's name of a closed session; a clear error for an unknown or open one.
    private func closedSession(_ id: Int64) throws -> String {
        let rows = try connection.query("SELECT driver_name, end_reason FROM sessions WHERE id = ?", .integer(id)) {
            ($0.text(0) ?? "", $0.text(1))
        }
        guard let (name, reason) = rows.first else { throw StoreError.notFound("no trip \(id)") }
        guard reason != nil else {
            throw StoreError.invalid("trip \(id) is still being driven; end it first (`fairfuel session end`)")
        }
        return name
    }

    /// Refuses a refuel at `atUTCMs` (`what`: how the message names it) that falls inside a settled
    /// bill's period, after the refuel before it and before it: whatever `force` says, since the new
    /// bill would take fuel the settled one keeps counting. The period is the log's as it stands.
    func refuseInsideSettledPeriod(_ what: String, atUTCMs: Int64) throws {
        let next = try connection.query(
            "SELECT id, at_utc_ms, settled_utc_ms IS NOT NULL FROM refuels WHERE at_utc_ms > ? ORDER BY at_utc_ms, id LIMIT 1",
            .integer(atUTCMs)
        ) { ($0.int64(0), $0.int64(1), $0.int(2) == 1) }
        guard let (settled, settledAt, isSettled) = next.first, isSettled else { return }
        let previous = try connection.query(
            "SELECT MAX(at_utc_ms) FROM refuels WHERE at_utc_ms < ?", .integer(settledAt)) { $0.optionalInt64(0) }.first ?? nil
        throw StoreError.insideSettledPeriod(
            what, atUTCMs: atUTCMs, settled: settled, settledBillUTCMs: settledAt, previousUTCMs: previous)
    }

    /// Refuses moving refuel `id` to `atUTCMs` before the car's first record (a session, untracked driving,
    /// a refuel or baseline mark, this one where it is now): a typo in the year, whose bill would hold no
    /// driving. A first fill-up before tracking stays where it was entered, or moves later.
    func refuseBeforeFirstRecord(refuel id: Int64, atUTCMs: Int64) throws {
        let first = try connection.scalarInt(
            """
            SELECT MIN(t) FROM (SELECT MIN(start_utc_ms) AS t FROM sessions
                                UNION ALL SELECT MIN(from_utc_ms) FROM untracked_driving
                                UNION ALL SELECT MIN(at_utc_ms) FROM refuels)
            """)
        guard let first, atUTCMs < first else { return }
        throw StoreError.invalid(
            "refuel \(id) moved to \(UTCTimestamp(millisecondsSinceEpoch: atUTCMs).iso8601) is before the car's first record "
                + "(\(UTCTimestamp(millisecondsSinceEpoch: first).iso8601)): check the date")
    }

    /// Refuses a change to a settled bill, or to one that does not exist.
    func requireUnsettled(refuel id: Int64) throws {
        let rows = try connection.query("SELECT settled_utc_ms FROM refuels WHERE id = ?", .integer(id)) { $0.optionalInt64(0) }
        guard let settled = rows.first else { throw StoreError.notFound("no refuel with id \(id)") }
        if let settled {
            throw StoreError.invalid(
                "refuel \(id) was settled on \(UTCTimestamp(millisecondsSinceEpoch: settled).iso8601) and a settled bill never changes")
        }
    }
}
