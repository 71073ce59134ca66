import FairFuelCore
import FairFuelSQLite

/// The store's retention: the event log's cap, the runs nothing needs, track thinning and the
/// vacuum of free pages. Its writes take their own transactions and never wait for the disk
/// pressure relief (they are what makes room).
public final class RetentionRepository {
    /// Sessions thinned per transaction: short enough not to hold the writer up for long.
    static let thinningBatch = 8
    /// Runs kept whatever they hold: the newest, this service's own among them, and one a replay
    /// or another command began meanwhile and has not stored a trip in yet.
    static let newestRunsKept: Int64 = 16

    let database: StoreDatabase
    /// Runs up to this id were pruned by this process's last pass (`pruneRuns()`).
    var runsPrunedThrough: Int64 = 0
    /// Scratch space for encoding thinned chunks, kept between passes.
    private var chunkBuffer: [UInt8] = []

    init(database: StoreDatabase) {
        self.database = database
    }

    private var connection: SQLiteConnection { database.connection }
    private var policy: RetentionPolicy { database.configuration.retention }

    /// Bytes the store would take with its free pages vacuumed, plus the WAL allowance and the
    /// reserve: what the budget is compared with.
    func projectedBytes() throws(StoreError) -> Int64 {
        do {
            let pageSize = try connection.pragmaInt("page_size")
            let used = try connection.pragmaInt("page_count") - connection.pragmaInt("freelist_count")
            return used * pageSize + policy.walAllowanceBytes + policy.reserveBytes
        } catch { throw .sqlite(error) }
    }

    /// The pass of `TripStore.enforceRetention(nowUTCMs:)` up to the vacuum and the checkpoint: the
    /// caller takes the reserve back and logs.
    func enforce(nowUTCMs: Int64?, into report: inout RetentionReport) throws(StoreError) {
        report.eventsDeleted = try trimEventLog()
        // A full disk must not keep the pass from thinning tracks, which is what makes room.
        report.runsDeleted = (try? pruneRuns()) ?? 0
        if let now = nowUTCMs {
            let cutoff = now - Int64(policy.tripPointMaxAgeDays) * 86_400_000
            while true {
                let old = try closedSessions(at: .full, endedBefore: cutoff, limit: Self.thinningBatch)
                guard !old.isEmpty else { break }
                report.pointsRemoved += try thin(old, to: .simplified)
                report.sessionsSimplifiedForAge += old.count
            }
        }
        var thinnedForBudget = false
        while true {
            let projected = try projectedBytes()
            guard projected > (thinnedForBudget ? policy.pruneTargetBytes : policy.pruneStartBytes) else { break }
            thinnedForBudget = true
            // Receipt photos are the largest rows and no part of the book: the oldest go before any track is thinned.
            let receipts = try deleteOldestReceipts(limit: 1)
            if receipts > 0 {
                report.receiptsDeleted += receipts
                continue
            }
            let full = try closedSessions(at: .full, endedBefore: nil, limit: Self.thinningBatch)
            if !full.isEmpty {
                report.pointsRemoved += try thin(full, to: .simplified)
                report.sessionsSimplifiedForBudget += full.count
                continue
            }
            let simplified = try closedSessions(at: .simplified, endedBefore: nil, limit: Self.thinningBatch)
            if !simplified.isEmpty {
                report.pointsRemoved += try thin(simplified, to: .anchorsOnly)
                report.sessionsReducedToAnchors += simplified.count
                continue
            }
            report.overBudget = try projectedBytes() > policy.diskBudgetBytes
            break
        }
        report.pagesVacuumed = try vacuumFreePages(force: thinnedForBudget || report.sessionsSimplifiedForAge > 0)
        if !report.isEmpty {
            // The database file shrinks when the vacuum's pages are checkpointed; a WAL grown
            // past its allowance by a big pass is cut back too.
            let walBytes = SQLiteDatabaseFiles.size(of: SQLiteDatabaseFiles(path: database.path).walPath) ?? 0
            _ = try? connection.checkpoint(walBytes > policy.walAllowanceBytes ? .truncate : .passive)
        }
    }

    /// Drops the oldest events past the cap; returns how many.
    func trimEventLog() throws(StoreError) -> Int {
        let mayExceed: Bool
        do { mayExceed = try eventLogMayExceedItsCap() } catch { throw .sqlite(error) }
        guard mayExceed else { return 0 }
        return try database.transaction(durable: false) { try deleteEventsPastTheCap() }
    }

    /// Whether the event log may hold more rows than its cap: the span of its ids (two index
    /// lookups) bounds its row count, so the walk that counts rows runs only when it can matter.
    func eventLogMayExceedItsCap() throws(SQLiteError) -> Bool {
        let cap = Int64(max(1, policy.eventLogMaxRows))
        let span = try connection.scalarInt("SELECT COALESCE(MAX(id) - MIN(id) + 1, 0) FROM events") ?? 0
        return span > cap
    }

    /// Deletes all but the newest `eventLogMaxRows` events. By rows, not by ids: a kind with its
    /// own cap (link errors) leaves gaps in the ids. Runs inside the caller's write.
    @discardableResult
    func deleteEventsPastTheCap() throws(SQLiteError) -> Int {
        let cap = Int64(max(1, policy.eventLogMaxRows))
        return try connection.run(
            "DELETE FROM events WHERE id <= (SELECT id FROM events ORDER BY id DESC LIMIT 1 OFFSET ?)", .integer(cap))
    }

    /// Drops the rows of runs that no session names and no replayed capture marks (a boot in which
    /// nobody drove, or only untracked), past the newest `newestRunsKept`; returns how many.
    ///
    /// A dongle that loses power at every engine stop begins a run at each of its 2 to 6 boots a
    /// day: without this the table would gain a row per boot for ever. What stays is what other
    /// features read: the runs sessions name (`run_id`), the runs whose `capture_fingerprint` makes
    /// `replay` refuse a capture twice, and the newest runs (`MAX(id)`, which a manual trip takes,
    /// and from which the next run's id follows, so no id is ever given again). Runs only grow when
    /// a run begins, so one scan of the sessions per process and new run is all it costs.
    func pruneRuns() throws(StoreError) -> Int {
        let newestRun: Int64?
        do { newestRun = try connection.scalarInt("SELECT MAX(id) FROM runs") } catch { throw .sqlite(error) }
        guard let newest = newestRun else { return 0 }
        let cut = newest - Self.newestRunsKept
        guard cut > 0, cut > runsPrunedThrough else { return 0 }
        let deleted = try database.transaction(durable: false) {
            try connection.runOnce(
                """
                DELETE FROM runs WHERE id <= ?1 AND capture_fingerprint IS NULL
                    AND id NOT IN (SELECT run_id FROM sessions WHERE run_id <= ?1)
                """,
                .integer(cut))
        }
        runsPrunedThrough = cut
        return deleted
    }

    /// Deletes the receipt photos of the oldest `limit` refuels that have one; returns how many.
    func deleteOldestReceipts(limit: Int) throws(StoreError) -> Int {
        try database.transaction(durable: false) {
            try connection.run(
                """
                DELETE FROM refuel_receipts WHERE refuel_id IN (
                    SELECT r.refuel_id FROM refuel_receipts r JOIN refuels f ON f.id = r.refuel_id ORDER BY f.at_utc_ms, r.refuel_id LIMIT ?)
                """,
                .int(limit))
        }
    }

    /// Closed sessions whose track is at `level`, oldest first.
    func closedSessions(at level: TrackLevel, endedBefore cutoff: Int64?, limit: Int) throws(StoreError) -> [SessionID] {
        do {
            return try connection.query(
                """
                SELECT id FROM sessions
                WHERE end_reason IS NOT NULL AND track_level = ?1 AND (?2 IS NULL OR COALESCE(end_utc_ms, start_utc_ms) < ?2)
                ORDER BY COALESCE(start_utc_ms, 0), id LIMIT ?3
                """,
                .int(level.rawValue), .optional(cutoff), .int(limit)
            ) { SessionID($0.int64(0)) }
        } catch { throw .sqlite(error) }
    }

    /// Rewrites the tracks of closed `sessions` at `level` in one transaction; returns the points
    /// removed. The store's cache of next chunk numbers must forget them (`TripStore.thin(_:to:)`).
    func thin(_ sessions: [SessionID], to level: TrackLevel) throws(StoreError) -> Int {
        var removed = 0
        try database.transaction(durable: false) {
            for session in sessions {
                let points = try TrackChunkStorage.points(of: session, connection: connection)
                var kept = points
                if let first = points.first, let last = points.last {
                    let anchors = try connection.query(
                        "SELECT at_utc_ms FROM refuels WHERE at_utc_ms BETWEEN ? AND ? ORDER BY at_utc_ms",
                        .integer(first.utcMs), .integer(last.utcMs)
                    ) { $0.int64(0) }
                    kept = switch level {
                    case .full: points
                    case .simplified:
                        TrackSimplifier.simplified(
                            points, toleranceMeters: policy.simplifiedToleranceMeters, maximumGapMs: policy.simplifiedMaximumGapMs,
                            anchorTimes: anchors)
                    case .anchorsOnly: TrackSimplifier.anchorsOnly(points, anchorTimes: anchors)
                    }
                }
                try TrackChunkStorage.delete(session: session.rawValue, connection: connection)
                if !kept.isEmpty {
                    _ = try TrackChunkStorage.insert(kept, session: session.rawValue, firstSequence: 0, connection: connection, buffer: &chunkBuffer)
                }
                try connection.run("UPDATE sessions SET track_level = ? WHERE id = ?", .int(level.rawValue), .integer(session.rawValue))
                removed += points.count - kept.count
            }
        }
        return removed
    }

    /// Gives free pages back to the file system, a WAL allowance at a time; returns the pages freed.
    /// Without `force`, only when free pages are over a sixteenth of the file or 1 MiB.
    func vacuumFreePages(force: Bool) throws(StoreError) -> Int {
        do {
            let pageSize = max(512, try connection.pragmaInt("page_size"))
            var free = try connection.pragmaInt("freelist_count")
            let total = try connection.pragmaInt("page_count")
            guard free > 0, force || free * pageSize > 1 << 20 || free * 16 > total else { return 0 }
            let step = max(64, policy.walAllowanceBytes / pageSize / 2)
            var freed: Int64 = 0
            while free > 0 {
                try connection.execute("PRAGMA incremental_vacuum(\(min(free, step)))")
                let after = try connection.pragmaInt("freelist_count")
                guard after < free else { break }
                freed += free - after
                free = after
            }
            return Int(freed)
        } catch { throw .sqlite(error) }
    }
}
