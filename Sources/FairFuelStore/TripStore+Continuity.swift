import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// The store's last trip, as start-up hands it to the domain's continuity rules.
public struct TripToContinue: Sendable, Equatable {
    public var session: SessionID
    public var trip: InterruptedTrip
    /// Untracked driving since the stop held for the trip (`trip.held`): removed when the trip
    /// takes it back (`reopenSession(_:absorbing:checkpoint:)`, `markContinued(_:from:absorbing:)`).
    public var heldUntracked: [Int64] = []
}

extension TripStore {
    /// The trip a drive after start-up may continue: the newest session when it is still open
    /// (the service stopped mid-trip) or ended by departure with nothing driven since. Any
    /// older session left open ends as `power_loss`, as does an open one that cannot go on
    /// (no UTC yet). Reads one session row and its track.
    public func tripToContinue(motion: MotionThresholds, session thresholds: SessionThresholds) throws(StoreError) -> TripToContinue? {
        typealias Row = (
            id: SessionID, driver: DriverID?, reason: String?, start: Int64?, last: Int64?, stopped: Int64?, end: Int64?, measuredUntil: Int64?
        )
        let newest: Row? = try wrap { () throws(SQLiteError) in
            try connection.queryOnce(
                """
                SELECT id, driver_id, end_reason, start_utc_ms, last_utc_ms, stopped_utc_ms, end_utc_ms, measured_until_utc_ms
                FROM sessions ORDER BY id DESC LIMIT 1
                """
            ) { row in
                (SessionID(row.int64(0)), row.optionalInt64(1).map(DriverID.init), row.text(2), row.optionalInt64(3),
                 row.optionalInt64(4), row.optionalInt64(5), row.optionalInt64(6), row.optionalInt64(7))
            }.first
        }
        try endSessionsLeftOpen(except: newest?.id)
        guard let newest, let driver = newest.driver, let start = newest.start else {
            if let newest, newest.reason == nil { try endSessionsLeftOpen() }
            return nil
        }
        let points = try TrackChunkStorage.points(of: newest.id, connection: connection)
        let last = points.last
        var trip: InterruptedTrip
        if newest.reason == nil {
            // Gone on after a stop or a restart: the row holds what it had measured then, the track the rest.
            var checkpoint: TripCheckpoint?
            if let movedOff = newest.measuredUntil {
                checkpoint = TripCheckpoint(metrics: try storedMetrics(of: newest.id) ?? TripMetrics(), movedOffUTCMs: movedOff)
            }
            let metrics = TripMeter.metrics(
                of: points.lazy.map {
                    TrackSample(utcMs: $0.utcMs, speed: MetersPerSecond($0.speedMetersPerSecond), distance: Meters($0.distanceMeters), fuel: Liters($0.fuelLiters))
                },
                startUTCMs: start, thresholds: motion, stoppedBelowMetersPerSecond: thresholds.stoppedBelowMetersPerSecond,
                checkpoint: checkpoint)
            let lastUTC = max(last?.utcMs ?? start, newest.last ?? start)
            trip = InterruptedTrip(
                driver: driver, isOpen: true, startUTCMs: start, lastUTCMs: lastUTC, latitude: last?.latitude,
                longitude: last?.longitude, lastSpeed: MetersPerSecond(last?.speedMetersPerSecond ?? 0), metrics: metrics)
            // The track ends standing: since its first point of that stop.
            let standing = points.reversed().prefix { $0.speedMetersPerSecond < thresholds.stoppedBelowMetersPerSecond }
            trip.standingSinceUTCMs = standing.last?.utcMs
        } else if newest.reason == SessionEndReason.departed.rawValue, let stop = newest.stopped ?? newest.end {
            guard let metrics = try storedMetrics(of: newest.id) else { return nil }
            trip = InterruptedTrip(
                driver: driver, isOpen: false, startUTCMs: start, lastUTCMs: stop, latitude: last?.latitude,
                longitude: last?.longitude, lastSpeed: .zero, metrics: metrics)
        } else {
            return nil
        }
        // Untracked driving stored since the stop: held for the trip when it names this driver
        // (the service stopped while waiting for their beacon, or wrote GNSS wander of the
        // parked car); anything else is somebody else's drive, and the trip does not go on.
        let since = try wrap { () throws(SQLiteError) in
            try connection.query(
                "SELECT id, from_utc_ms, to_utc_ms, distance_m, fuel_l, candidate_driver_ids FROM untracked_driving WHERE to_utc_ms > ? ORDER BY id",
                .integer(trip.lastUTCMs)
            ) { (id: $0.int64(0), from: $0.int64(1), to: $0.int64(2), distance: $0.double(3), fuel: $0.double(4), candidates: Self.candidateIDs($0.text(5))) }
        }
        guard since.allSatisfy({ $0.candidates.contains(driver) }) else {
            if newest.reason == nil { try endSessionsLeftOpen(only: newest.id) }
            return nil
        }
        for stretch in since {
            trip.held.distance += Meters(stretch.distance)
            trip.held.fuel += Liters(stretch.fuel)
            trip.held.movingMs += max(0, stretch.to - stretch.from)
        }
        return TripToContinue(session: newest.id, trip: trip, heldUntracked: since.map(\.id))
    }

    /// What a session's row says it measured (written at its end).
    func storedMetrics(of id: SessionID) throws(StoreError) -> TripMetrics? {
        guard let stored = try wrap({ () throws(SQLiteError) in
            try connection.query("\(StoredSession.selectColumns) WHERE id = ?", .integer(id.rawValue)) { StoredSession(row: $0) }.first
        }) else { return nil }
        var metrics = TripMetrics()
        metrics.distance = Meters(stored.distanceMeters)
        metrics.durationMs = stored.durationMs
        metrics.movingMs = stored.movingMs
        metrics.idleMs = stored.idleMs
        metrics.maximumSpeed = MetersPerSecond(stored.maximumSpeedMetersPerSecond)
        metrics.harshAccelerations = stored.harshAccelerations
        metrics.harshBrakings = stored.harshBrakings
        metrics.fuel = Liters(stored.fuelLiters)
        return metrics
    }

    /// Takes a session up again after an automatic resumption: an ended one is open again
    /// (its end and totals are written anew when it ends), an open one counts the resumption.
    /// `absorbing`: untracked driving the trip takes back (`TripToContinue.heldUntracked`), removed in
    /// the same transaction. `checkpoint`: what the trip had measured when the car moved off, kept
    /// in the row, so that a restart later in the trip reads only the track after it
    /// (`tripToContinue`) and counts the stop before as the live meter did.
    public func reopenSession(_ id: SessionID, absorbing held: [Int64] = [], checkpoint: TripCheckpoint? = nil) throws(StoreError) {
        try write(durable: true) {
            for stretch in held { try connection.run("DELETE FROM untracked_driving WHERE id = ?", .integer(stretch)) }
            try connection.runOnce(
                """
                UPDATE sessions SET end_reason = NULL, end_link_ms = NULL, end_utc_ms = NULL, stopped_utc_ms = NULL,
                    driver_left_utc_ms = NULL, resumed_count = resumed_count + 1
                WHERE id = ?
                """,
                .integer(id.rawValue))
            if let checkpoint {
                let metrics = checkpoint.metrics
                try connection.runOnce(
                    """
                    UPDATE sessions SET measured_until_utc_ms = ?, distance_m = ?, duration_ms = ?, moving_ms = ?, idle_ms = ?,
                        max_speed_mps = ?, harsh_accel = ?, harsh_brake = ?, fuel_l = ?
                    WHERE id = ?
                    """,
                    .integer(checkpoint.movedOffUTCMs), .real(metrics.distance.value), .integer(metrics.durationMs),
                    .integer(metrics.movingMs), .integer(metrics.idleMs), .real(metrics.maximumSpeed.value),
                    .int(metrics.harshAccelerations), .int(metrics.harshBrakings), .real(metrics.fuel.value), .integer(id.rawValue))
            }
        }
    }

    /// Marks `id` as started without a tap, continuing `previous`'s driver after a park.
    public func markContinued(_ id: SessionID, from previous: SessionID?, absorbing held: [Int64] = []) throws(StoreError) {
        try write(durable: true) {
            for stretch in held { try connection.run("DELETE FROM untracked_driving WHERE id = ?", .integer(stretch)) }
            try connection.runOnce(
                "UPDATE sessions SET resumed_count = resumed_count + 1, continued_from = ? WHERE id = ?",
                .optional(previous?.rawValue), .integer(id.rawValue))
        }
    }

    /// Sessions the store holds open.
    public func openSessionCount() throws(StoreError) -> Int {
        Int(try wrap { () throws(SQLiteError) in try connection.scalarInt("SELECT COUNT(*) FROM sessions WHERE end_reason IS NULL") ?? 0 })
    }

    /// Who may have driven each stretch of untracked driving, oldest first (ids as stored).
    public func untrackedCandidates() throws(StoreError) -> [(fromUTCMs: Int64, distanceMeters: Double, candidates: [DriverID])] {
        try wrap { () throws(SQLiteError) in
            try connection.query("SELECT from_utc_ms, distance_m, candidate_driver_ids FROM untracked_driving ORDER BY from_utc_ms, id") { row in
                (row.int64(0), row.double(1), Self.candidateIDs(row.text(2)))
            }
        }
    }
}

extension TripStore {
    /// Candidates as stored: comma-separated driver ids, NULL for none.
    static func candidateText(_ candidates: [DriverID]) -> SQLiteValue {
        candidates.isEmpty ? .null : .text(candidates.map { String($0.rawValue) }.joined(separator: ","))
    }

    static func candidateIDs(_ text: String?) -> [DriverID] {
        (text ?? "").split(separator: ",").compactMap { Int64($0) }.map(DriverID.init)
    }
}
