import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// A trip point ready to store, stamped in UTC.
public struct StoredTripPoint: Sendable, Equatable {
    public var session: SessionID
    public var utcMs: Int64
    public var latitude: Double
    public var longitude: Double
    public var speedMetersPerSecond: Double
    /// Running totals within the session.
    public var distanceMeters: Double
    public var fuelLiters: Double

    public init(session: SessionID, utcMs: Int64, latitude: Double, longitude: Double, speedMetersPerSecond: Double, distanceMeters: Double, fuelLiters: Double) {
        self.session = session
        self.utcMs = utcMs
        self.latitude = latitude
        self.longitude = longitude
        self.speedMetersPerSecond = speedMetersPerSecond
        self.distanceMeters = distanceMeters
        self.fuelLiters = fuelLiters
    }
}

/// A session as stored (open ones have no end).
public struct StoredSession: Sendable, Equatable {
    public var id: SessionID
    public var driver: DriverID?
    public var driverName: String
    public var startUTCMs: Int64?
    public var endUTCMs: Int64?
    public var endReason: SessionEndReason?
    public var stoppedUTCMs: Int64?
    public var driverLeftUTCMs: Int64?
    public var distanceMeters: Double
    public var durationMs: Int64
    public var movingMs: Int64
    public var idleMs: Int64
    public var maximumSpeedMetersPerSecond: Double
    public var harshAccelerations: Int
    public var harshBrakings: Int
    public var fuelLiters: Double
}

extension TripStore {
    /// Starts a new run of the service (a boot, a replay): link times are only comparable within a run.
    public func beginRun(note: String) throws(StoreError) -> Int64 {
        try write {
            try connection.run("INSERT INTO runs (started_note) VALUES (?)", .text(note))
            return connection.lastInsertRowID
        }
    }

    /// Records a session start at once, synced to disk.
    /// `fuelScale` is the calibration factor its fuel is estimated with.
    public func openSession(driver: DriverID, driverName: String, run: Int64, startLinkMs: Int64, startUTCMs: Int64?, fuelScale: Double = 1) throws(StoreError) -> SessionID {
        try write(durable: true) {
            try connection.run(
                """
                INSERT INTO sessions (driver_id, driver_name, run_id, start_link_ms, start_utc_ms, last_utc_ms, fuel_scale)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                .integer(driver.rawValue), .text(driverName), .integer(run), .integer(startLinkMs),
                .optional(startUTCMs), .optional(startUTCMs), .real(fuelScale))
            return SessionID(connection.lastInsertRowID)
        }
    }

    /// Writes a batch of trip points in one transaction and moves each session's last recorded moment.
    public func appendTripPoints<C: Collection>(_ points: C) throws(StoreError) where C.Element == StoredTripPoint {
        guard !points.isEmpty else { return }
        try write {
            let insert = try connection.statement(
                "INSERT INTO trip_points (session_id, t_utc_ms, lat, lon, speed_mps, distance_m, fuel_l) VALUES (?, ?, ?, ?, ?, ?, ?)")
            for point in points {
                insert.rewind()
                insert.bind(int64: point.session.rawValue, at: 1)
                insert.bind(int64: point.utcMs, at: 2)
                insert.bind(double: point.latitude, at: 3)
                insert.bind(double: point.longitude, at: 4)
                insert.bind(double: point.speedMetersPerSecond, at: 5)
                insert.bind(double: point.distanceMeters, at: 6)
                insert.bind(double: point.fuelLiters, at: 7)
                while try insert.step() {}
            }
            if let last = points.max(by: { $0.utcMs < $1.utcMs }) {
                try connection.run(
                    "UPDATE sessions SET last_utc_ms = MAX(COALESCE(last_utc_ms, 0), ?), distance_m = ?, fuel_l = ? WHERE id = ? AND end_reason IS NULL",
                    .integer(last.utcMs), .real(last.distanceMeters), .real(last.fuelLiters), .integer(last.session.rawValue))
            }
        }
    }

    /// Records a session end with its metrics at once, synced to disk.
    public func closeSession(_ id: SessionID, record: SessionRecord, utc: (LinkMilliseconds) -> Int64?) throws(StoreError) {
        let metrics = record.metrics
        try write(durable: true) {
            try connection.run(
                """
                UPDATE sessions SET end_link_ms = ?, end_utc_ms = ?, last_utc_ms = COALESCE(?, last_utc_ms), end_reason = ?,
                    stopped_utc_ms = ?, driver_left_utc_ms = ?, distance_m = ?, duration_ms = ?, moving_ms = ?, idle_ms = ?,
                    max_speed_mps = ?, harsh_accel = ?, harsh_brake = ?, fuel_l = ?
                WHERE id = ?
                """,
                .integer(record.endedAt.value), .optional(utc(record.endedAt)), .optional(utc(record.endedAt)),
                .text(record.reason.rawValue), .optional(record.stoppedAt.flatMap(utc)), .optional(record.driverLeftAt.flatMap(utc)),
                .real(metrics.distance.value), .integer(metrics.durationMs), .integer(metrics.movingMs), .integer(metrics.idleMs),
                .real(metrics.maximumSpeed.value), .int(metrics.harshAccelerations), .int(metrics.harshBrakings),
                .real(metrics.fuel.value), .integer(id.rawValue))
        }
    }

    /// Stamps this run's sessions that started before UTC was known.
    public func anchorRun(_ run: Int64, offsetMs: Int64) throws(StoreError) {
        try write {
            try connection.run(
                "UPDATE sessions SET start_utc_ms = start_link_ms + ? WHERE run_id = ? AND start_utc_ms IS NULL",
                .integer(offsetMs), .integer(run))
            try connection.run(
                "UPDATE sessions SET end_utc_ms = end_link_ms + ? WHERE run_id = ? AND end_utc_ms IS NULL AND end_link_ms IS NOT NULL",
                .integer(offsetMs), .integer(run))
            try connection.run(
                "UPDATE sessions SET last_utc_ms = COALESCE(end_utc_ms, start_utc_ms) WHERE run_id = ? AND last_utc_ms IS NULL",
                .integer(run))
        }
    }

    /// Ends every session a power cut left open, at its last recorded moment (`power_loss`).
    @discardableResult
    public func endSessionsLeftOpen() throws(StoreError) -> [SessionID] {
        try write(durable: true) {
            let open = try connection.query(
                "SELECT id, start_utc_ms, last_utc_ms FROM sessions WHERE end_reason IS NULL ORDER BY id"
            ) { (SessionID($0.int64(0)), $0.optionalInt64(1), $0.optionalInt64(2)) }
            for (id, start, last) in open {
                let end = last ?? start
                let summary = try connection.query(
                    "SELECT MAX(distance_m), MAX(fuel_l), MAX(speed_mps) FROM trip_points WHERE session_id = ?",
                    .integer(id.rawValue)
                ) { ($0.optionalDouble(0) ?? 0, $0.optionalDouble(1) ?? 0, $0.optionalDouble(2) ?? 0) }.first ?? (0, 0, 0)
                let duration = (start != nil && end != nil) ? end! - start! : 0
                try connection.run(
                    """
                    UPDATE sessions SET end_reason = 'power_loss', end_utc_ms = ?, duration_ms = ?, distance_m = ?,
                        fuel_l = ?, max_speed_mps = ? WHERE id = ?
                    """,
                    .optional(end), .integer(duration), .real(summary.0), .real(summary.1), .real(summary.2), .integer(id.rawValue))
            }
            return open.map(\.0)
        }
    }

    public func addUntracked(fromUTCMs: Int64, toUTCMs: Int64, distanceMeters: Double, fuelLiters: Double, fuelScale: Double = 1) throws(StoreError) {
        try write {
            try connection.run(
                "INSERT INTO untracked_driving (from_utc_ms, to_utc_ms, distance_m, fuel_l, fuel_scale) VALUES (?, ?, ?, ?, ?)",
                .integer(fromUTCMs), .integer(toUTCMs), .real(distanceMeters), .real(fuelLiters), .real(fuelScale))
        }
    }

    /// Sessions, oldest first, optionally filtered.
    public func sessions(driver: DriverID? = nil, sinceUTCMs: Int64? = nil, untilUTCMs: Int64? = nil) throws(StoreError) -> [StoredSession] {
        try wrap { () throws(SQLiteError) in
            try connection.query(
                """
                SELECT id, driver_id, driver_name, start_utc_ms, end_utc_ms, end_reason, stopped_utc_ms, driver_left_utc_ms,
                       distance_m, duration_ms, moving_ms, idle_ms, max_speed_mps, harsh_accel, harsh_brake, fuel_l
                FROM sessions
                WHERE (?1 IS NULL OR driver_id = ?1) AND (?2 IS NULL OR start_utc_ms >= ?2) AND (?3 IS NULL OR start_utc_ms < ?3)
                ORDER BY COALESCE(start_utc_ms, 0), id
                """,
                .optional(driver?.rawValue), .optional(sinceUTCMs), .optional(untilUTCMs)
            ) { row in
                StoredSession(
                    id: SessionID(row.int64(0)), driver: row.optionalInt64(1).map(DriverID.init), driverName: row.text(2) ?? "",
                    startUTCMs: row.optionalInt64(3), endUTCMs: row.optionalInt64(4),
                    endReason: row.text(5).flatMap(SessionEndReason.init(rawValue:)), stoppedUTCMs: row.optionalInt64(6),
                    driverLeftUTCMs: row.optionalInt64(7), distanceMeters: row.double(8), durationMs: row.int64(9),
                    movingMs: row.int64(10), idleMs: row.int64(11), maximumSpeedMetersPerSecond: row.double(12),
                    harshAccelerations: row.int(13), harshBrakings: row.int(14), fuelLiters: row.double(15))
            }
        }
    }

    public func tripPoints(session: SessionID) throws(StoreError) -> [StoredTripPoint] {
        try wrap { () throws(SQLiteError) in
            try connection.query(
                "SELECT t_utc_ms, lat, lon, speed_mps, distance_m, fuel_l FROM trip_points WHERE session_id = ? ORDER BY t_utc_ms",
                .integer(session.rawValue)
            ) { row in
                StoredTripPoint(
                    session: session, utcMs: row.int64(0), latitude: row.double(1), longitude: row.double(2),
                    speedMetersPerSecond: row.double(3), distanceMeters: row.double(4), fuelLiters: row.double(5))
            }
        }
    }
}
