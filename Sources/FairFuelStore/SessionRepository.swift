import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

/// Runs, sessions and their tracks: the queries of trips, and the rows they write inside the
/// caller's transaction (`TripStore.write`; recording, closing and the book's re-split stay there).
public struct SessionRepository {
    let database: StoreDatabase

    init(database: StoreDatabase) {
        self.database = database
    }

    private var connection: SQLiteConnection { database.connection }

    /// Inserts a run; returns its id.
    func insertRun(note: String, captureFingerprint: String?) throws(SQLiteError) -> Int64 {
        try connection.runOnce(
            "INSERT INTO runs (started_note, capture_fingerprint) VALUES (?, ?)", .text(note), .optional(captureFingerprint))
        return connection.lastInsertRowID
    }

    /// The earliest run that replayed the capture with `fingerprint`, if any.
    func replayRun(ofCapture fingerprint: String) throws(StoreError) -> (id: Int64, note: String)? {
        do {
            return try connection.queryOnce(
                "SELECT id, started_note FROM runs WHERE capture_fingerprint = ? ORDER BY id LIMIT 1", .text(fingerprint)
            ) { ($0.int64(0), $0.text(1) ?? "") }.first
        } catch { throw .sqlite(error) }
    }

    /// Inserts an open session; returns its id.
    func insertSession(
        driver: DriverID, driverName: String, run: Int64, startLinkMs: Int64, startUTCMs: Int64?, fuelScale: Double
    ) throws(SQLiteError) -> SessionID {
        try connection.run(
            """
            INSERT INTO sessions (driver_id, driver_name, run_id, start_link_ms, start_utc_ms, last_utc_ms, fuel_scale)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            .integer(driver.rawValue), .text(driverName), .integer(run), .integer(startLinkMs),
            .optional(startUTCMs), .optional(startUTCMs), .real(fuelScale))
        return SessionID(connection.lastInsertRowID)
    }

    /// Stamps a run's sessions that started before UTC was known.
    func anchor(run: Int64, offsetMs: Int64) throws(SQLiteError) {
        try connection.runOnce(
            "UPDATE sessions SET start_utc_ms = start_link_ms + ? WHERE run_id = ? AND start_utc_ms IS NULL",
            .integer(offsetMs), .integer(run))
        try connection.runOnce(
            "UPDATE sessions SET end_utc_ms = end_link_ms + ? WHERE run_id = ? AND end_utc_ms IS NULL AND end_link_ms IS NOT NULL",
            .integer(offsetMs), .integer(run))
        try connection.runOnce(
            "UPDATE sessions SET last_utc_ms = COALESCE(end_utc_ms, start_utc_ms) WHERE run_id = ? AND last_utc_ms IS NULL",
            .integer(run))
    }

    /// Sessions still open, with their start and last stored UTC times; `except` left out, `only` alone.
    func openSessions(except kept: SessionID?, only: SessionID?) throws(StoreError) -> [(id: SessionID, startUTCMs: Int64?, lastUTCMs: Int64?)] {
        do {
            return try connection.queryOnce(
                "SELECT id, start_utc_ms, last_utc_ms FROM sessions WHERE end_reason IS NULL AND id IS NOT ? AND (? IS NULL OR id = ?) ORDER BY id",
                .optional(kept?.rawValue), .optional(only?.rawValue), .optional(only?.rawValue)
            ) { (SessionID($0.int64(0)), $0.optionalInt64(1), $0.optionalInt64(2)) }
        } catch { throw .sqlite(error) }
    }

    /// Sessions, oldest first, optionally filtered. An open session shows its totals so far
    /// (from its last stored point).
    func sessions(driver: DriverID?, sinceUTCMs: Int64?, untilUTCMs: Int64?) throws(StoreError) -> [StoredSession] {
        var sessions: [StoredSession]
        do {
            sessions = try connection.query(
                """
                \(StoredSession.selectColumns)
                WHERE (?1 IS NULL OR driver_id = ?1) AND (?2 IS NULL OR start_utc_ms >= ?2) AND (?3 IS NULL OR start_utc_ms < ?3)
                ORDER BY COALESCE(start_utc_ms, 0), id
                """,
                .optional(driver?.rawValue), .optional(sinceUTCMs), .optional(untilUTCMs)
            ) { row in StoredSession(row: row) }
        } catch { throw .sqlite(error) }
        for index in sessions.indices where sessions[index].endReason == nil {
            guard let last = try TrackChunkStorage.lastPoint(of: sessions[index].id, connection: connection) else { continue }
            sessions[index].distanceMeters = max(sessions[index].distanceMeters, last.distanceMeters)
            sessions[index].fuelLiters = max(sessions[index].fuelLiters, last.fuelLiters)
            if let start = sessions[index].startUTCMs { sessions[index].durationMs = max(0, last.utcMs - start) }
        }
        return sessions
    }

    /// Every stored point of `session`, in time order (after retention: what it kept).
    func tripPoints(session: SessionID) throws(StoreError) -> [StoredTripPoint] {
        try TrackChunkStorage.points(of: session, connection: connection)
    }
}
