import FairFuelCore
import FairFuelDomain
import FairFuelSQLite

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
    /// Automatic resumptions (continuity rules): after a restart or a short stop without a tap.
    public var resumedCount: Int = 0
    /// A session started without a tap after a park continues this one's driver.
    public var continuedFrom: SessionID? = nil
    /// The untracked driving `trips assign` made this session from (it has no positions); nil: recorded.
    public var assignedFromUntracked: Int64? = nil

    /// The end reason every listing and message gives (`trips`, a USB pull, the uplink): `assigned`
    /// for a trip made from untracked driving, whose figures are only its distance and fuel, so
    /// that readers across cars know it as `trips` does; the rule's reason otherwise.
    public var reportedEndReason: String? {
        assignedFromUntracked != nil ? "assigned" : endReason?.rawValue
    }
}

extension TripStore {
    /// Starts a new run of the service (a boot, a replay): link times are only comparable within a run.
    /// `captureFingerprint`: the capture a replay reads (`CaptureReading.fingerprint()`).
    public func beginRun(note: String, captureFingerprint: String? = nil) throws(StoreError) -> Int64 {
        try write { try sessionsRepository.insertRun(note: note, captureFingerprint: captureFingerprint) }
    }

    /// The earliest run that replayed the capture with `fingerprint` into this store, if any.
    public func replayRun(ofCapture fingerprint: String) throws(StoreError) -> (id: Int64, note: String)? {
        try sessionsRepository.replayRun(ofCapture: fingerprint)
    }

    /// Records a session start at once, synced to disk.
    /// `fuelScale` is the calibration factor its fuel is estimated with.
    public func openSession(driver: DriverID, driverName: String, run: Int64, startLinkMs: Int64, startUTCMs: Int64?, fuelScale: Double = 1) throws(StoreError) -> SessionID {
        try write(durable: true) {
            try sessionsRepository.insertSession(
                driver: driver, driverName: driverName, run: run, startLinkMs: startLinkMs, startUTCMs: startUTCMs, fuelScale: fuelScale)
        }
    }

    /// Writes a batch of trip points in one transaction, as one compact chunk per session.
    ///
    /// The open session's row is not touched (its end and totals come from its last chunk),
    /// so a batch of one session rewrites a single page of the file.
    public func appendTripPoints<C: Collection>(_ points: C) throws(StoreError) where C.Element == StoredTripPoint {
        guard !points.isEmpty else { return }
        var next: [Int64: Int64] = [:]
        try write {
            var start = points.startIndex
            while start != points.endIndex {
                let session = points[start].session.rawValue
                var end = points.index(after: start)
                while end != points.endIndex, points[end].session.rawValue == session { end = points.index(after: end) }
                let first = try next[session] ?? nextChunkSequence[session] ?? TrackChunkStorage.nextSequence(session: session, connection: connection)
                next[session] = try TrackChunkStorage.insert(
                    points[start..<end], session: session, firstSequence: first, connection: connection, buffer: &chunkBuffer)
                start = end
            }
        }
        if nextChunkSequence.count > 16 { nextChunkSequence.removeAll(keepingCapacity: true) }
        nextChunkSequence.merge(next) { $1 }
    }

    /// Records a session end with its metrics at once, synced to disk.
    public func closeSession(_ id: SessionID, record: SessionRecord, utc: (LinkMilliseconds) -> Int64?) throws(StoreError) {
        let metrics = record.metrics
        try write(durable: true) {
            try connection.run(
                """
                UPDATE sessions SET end_link_ms = ?, end_utc_ms = MAX(?, COALESCE(start_utc_ms, ?)), last_utc_ms = COALESCE(?, last_utc_ms), end_reason = ?,
                    stopped_utc_ms = ?, driver_left_utc_ms = ?, distance_m = ?, duration_ms = ?, moving_ms = ?, idle_ms = ?,
                    max_speed_mps = ?, harsh_accel = ?, harsh_brake = ?, fuel_l = ?
                WHERE id = ?
                """,
                // A trip never ends before it started, whatever the receiver's clock did meanwhile.
                .integer(record.endedAt.value), .optional(utc(record.endedAt)), .optional(utc(record.endedAt)),
                .optional(utc(record.endedAt)), .text(record.reason.rawValue), .optional(record.stoppedAt.flatMap(utc)), .optional(record.driverLeftAt.flatMap(utc)),
                .real(metrics.distance.value), .integer(metrics.durationMs), .integer(metrics.movingMs), .integer(metrics.idleMs),
                .real(metrics.maximumSpeed.value), .int(metrics.harshAccelerations), .int(metrics.harshBrakings),
                .real(metrics.fuel.value), .integer(id.rawValue))
            try enqueueTripMessage(session: id.rawValue)
        }
        resplitIfBillsFollow(sessions: [id])
    }

    /// A trip stored after a bill that falls inside or after it (a capture replayed into a store
    /// whose refuels were entered first; a refuel typed at the pump while the trip it interrupts
    /// went on; a trip a power cut left open) was left out of, or cut short in, that bill's split:
    /// the bills are split again, as after a correction (a settled bill stays as it is). When no
    /// refuel follows the trip's start, as in a car's everyday life, this is one indexed query.
    func resplitIfBillsFollow(sessions: [SessionID] = [], fromUTCMs: Int64? = nil) {
        do {
            var earliest = fromUTCMs
            for session in sessions {
                guard let start = try connection.scalarInt("SELECT start_utc_ms FROM sessions WHERE id = ?", .integer(session.rawValue))
                else { continue }
                earliest = min(earliest ?? start, start)
            }
            guard let earliest,
                  try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM refuels WHERE at_utc_ms > ?)", .integer(earliest)) == 1
            else { return }
            try rebook(force: true) {}
        } catch {
            log(.warning, "re-splitting the bills after a trip stored before them failed: \(error); the next correction re-splits them")
        }
    }

    /// Stamps this run's sessions that started before UTC was known.
    public func anchorRun(_ run: Int64, offsetMs: Int64) throws(StoreError) {
        try write { try sessionsRepository.anchor(run: run, offsetMs: offsetMs) }
    }

    /// Ends every session a power cut left open, at its last recorded moment (`power_loss`),
    /// with the distance, fuel and top speed of its stored points.
    /// `except`: a session left open for the continuity rules to decide; `only`: just that one.
    @discardableResult
    public func endSessionsLeftOpen(except kept: SessionID? = nil, only: SessionID? = nil) throws(StoreError) -> [SessionID] {
        let open = try sessionsRepository.openSessions(except: kept, only: only)
        guard !open.isEmpty else { return [] }
        var summaries: [(id: SessionID, end: Int64?, duration: Int64, distance: Double, fuel: Double, speed: Double)] = []
        for (id, start, last) in open {
            let points = try TrackChunkStorage.points(of: id, connection: connection)
            let end = points.last.map { max($0.utcMs, last ?? $0.utcMs) } ?? last ?? start
            let duration = (start != nil && end != nil) ? max(0, end! - start!) : 0
            summaries.append((
                id, end, duration, points.map(\.distanceMeters).max() ?? 0, points.map(\.fuelLiters).max() ?? 0,
                points.map(\.speedMetersPerSecond).max() ?? 0))
        }
        try write(durable: true) {
            for summary in summaries {
                try connection.run(
                    """
                    UPDATE sessions SET end_reason = 'power_loss', end_utc_ms = ?, last_utc_ms = COALESCE(?, last_utc_ms),
                        duration_ms = ?, distance_m = ?, fuel_l = ?, max_speed_mps = ? WHERE id = ? AND end_reason IS NULL
                    """,
                    .optional(summary.end), .optional(summary.end), .integer(summary.duration), .real(summary.distance),
                    .real(summary.fuel), .real(summary.speed), .integer(summary.id.rawValue))
                try enqueueTripMessage(session: summary.id.rawValue)
            }
        }
        resplitIfBillsFollow(sessions: open.map(\.0))
        return open.map(\.0)
    }

    /// Records untracked driving; `candidates` are who may have driven it (never a decision).
    /// A chunk that carries on the last one (within `untrackedJoinGapMs`, same fuel scale, no
    /// refuel in between) extends it, so that one drive nobody tapped in for is one trip in
    /// `fairfuel trips`, not one a minute; its candidates are everyone either chunk names.
    public func addUntracked(
        fromUTCMs: Int64, toUTCMs: Int64, distanceMeters: Double, fuelLiters: Double, fuelScale: Double = 1,
        candidates: [DriverID] = []
    ) throws(StoreError) {
        // Synced: it is split between the drivers like a session.
        try write(durable: true) {
            let last = try connection.query(
                "SELECT id, from_utc_ms, to_utc_ms, fuel_scale, candidate_driver_ids FROM untracked_driving ORDER BY to_utc_ms DESC, id DESC LIMIT 1"
            ) { ($0.int64(0), $0.int64(1), $0.int64(2), $0.double(3), $0.text(4)) }.first
            if let (id, lastFrom, lastTo, scale, lastCandidates) = last, fromUTCMs >= lastTo, fromUTCMs - lastTo <= Self.untrackedJoinGapMs,
               scale == fuelScale,
               try connection.scalarInt(
                   "SELECT COUNT(*) FROM refuels WHERE at_utc_ms >= ? AND at_utc_ms <= ?", .integer(lastFrom), .integer(toUTCMs)) == 0
            {
                var joined = Self.candidateIDs(lastCandidates)
                for candidate in candidates where !joined.contains(candidate) { joined.append(candidate) }
                try connection.run(
                    """
                    UPDATE untracked_driving SET to_utc_ms = ?, distance_m = distance_m + ?, fuel_l = fuel_l + ?,
                        candidate_driver_ids = ? WHERE id = ?
                    """,
                    .integer(toUTCMs), .real(distanceMeters), .real(fuelLiters), Self.candidateText(joined), .integer(id))
                return
            }
            let candidateText = Self.candidateText(candidates)
            try connection.run(
                """
                INSERT INTO untracked_driving (from_utc_ms, to_utc_ms, distance_m, fuel_l, fuel_scale, candidate_driver_ids)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                .integer(fromUTCMs), .integer(toUTCMs), .real(distanceMeters), .real(fuelLiters), .real(fuelScale), candidateText)
        }
        resplitIfBillsFollow(fromUTCMs: fromUTCMs)
    }

    /// Untracked chunks at most this far apart are one drive (the domain hands them out back to back).
    static let untrackedJoinGapMs: Int64 = 5_000

    /// Sessions, oldest first, optionally filtered. An open session shows its totals so far
    /// (from its last stored point).
    public func sessions(driver: DriverID? = nil, sinceUTCMs: Int64? = nil, untilUTCMs: Int64? = nil) throws(StoreError) -> [StoredSession] {
        try sessionsRepository.sessions(driver: driver, sinceUTCMs: sinceUTCMs, untilUTCMs: untilUTCMs)
    }

    /// Every stored point of `session`, in time order (after retention: what it kept).
    public func tripPoints(session: SessionID) throws(StoreError) -> [StoredTripPoint] {
        try sessionsRepository.tripPoints(session: session)
    }
}

extension StoredSession {
    /// The columns `init(row:)` reads, in its order: one list for every session query.
    static let selectColumns = """
        SELECT id, driver_id, driver_name, start_utc_ms, end_utc_ms, end_reason, stopped_utc_ms, driver_left_utc_ms,
               distance_m, duration_ms, moving_ms, idle_ms, max_speed_mps, harsh_accel, harsh_brake, fuel_l,
               resumed_count, continued_from, assigned_from_untracked
        FROM sessions
        """

    init(row: SQLiteStatement) {
        self.init(
            id: SessionID(row.int64(0)), driver: row.optionalInt64(1).map(DriverID.init), driverName: row.text(2) ?? "",
            startUTCMs: row.optionalInt64(3), endUTCMs: row.optionalInt64(4),
            endReason: row.text(5).flatMap(SessionEndReason.init(rawValue:)), stoppedUTCMs: row.optionalInt64(6),
            driverLeftUTCMs: row.optionalInt64(7), distanceMeters: row.double(8), durationMs: row.int64(9),
            movingMs: row.int64(10), idleMs: row.int64(11), maximumSpeedMetersPerSecond: row.double(12),
            harshAccelerations: row.int(13), harshBrakings: row.int(14), fuelLiters: row.double(15),
            resumedCount: row.int(16), continuedFrom: row.optionalInt64(17).map(SessionID.init),
            assignedFromUntracked: row.optionalInt64(18))
    }
}
