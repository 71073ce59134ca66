import FairFuelCore
import FairFuelSQLite

extension TripStore {
    static var thinningBatch: Int { RetentionRepository.thinningBatch }
    static var newestRunsKept: Int64 { RetentionRepository.newestRunsKept }

    /// Runs up to this id were pruned by this process's last retention pass (`pruneRuns()`).
    var runsPrunedThrough: Int64 { retention.runsPrunedThrough }

    /// Bytes the store would take with its free pages vacuumed, plus the WAL allowance and the
    /// reserve: what the budget is compared with.
    public func projectedBytes() throws(StoreError) -> Int64 { try retention.projectedBytes() }

    /// Database, WAL and reserve bytes as the file system sees them.
    public var bytesOnDisk: Int64 { SQLiteDatabaseFiles(path: path).bytesOnDisk }

    /// The store's files at `path` as the file system sees them, in bytes (0 for one that is
    /// not there; the database nil when it is not): what `status` reports.
    public static func fileSizes(at path: String) -> (database: Int64?, wal: Int64, sharedMemory: Int64, reserve: Int64) {
        let files = SQLiteDatabaseFiles(path: path)
        return (SQLiteDatabaseFiles.size(of: path), SQLiteDatabaseFiles.size(of: files.walPath) ?? 0,
                SQLiteDatabaseFiles.size(of: files.sharedMemoryPath) ?? 0, SQLiteDatabaseFiles.size(of: files.reservePath) ?? 0)
    }

    /// Applies the retention policy: caps the event log, drops the rows of runs nothing needs
    /// (`pruneRuns()`), simplifies full tracks older than the
    /// age limit, and, past `pruneStartPercent` of the disk budget, thins the oldest tracks until
    /// the store is back under `pruneTargetPercent` of it; then vacuums free pages so that the
    /// file shrinks.
    ///
    /// Past the budget the oldest refuels' receipt photos go first, then tracks are thinned.
    /// Session summaries, untracked driving, refuels, splits and calibration are kept for ever.
    /// `nowUTCMs` must come from a trusted clock (GNSS); nil skips the age rule.
    /// Cheap when there is nothing to do; the service runs it at start-up and hourly.
    @discardableResult
    public func enforceRetention(nowUTCMs: Int64?) throws(StoreError) -> RetentionReport {
        let policy = configuration.retention
        var report = RetentionReport()
        report.bytesOnDiskBefore = bytesOnDisk
        defer { nextChunkSequence.removeAll(keepingCapacity: true) }
        try retention.enforce(nowUTCMs: nowUTCMs, into: &report)
        if !restoreDiskReserve() { report.reserveMissing = true }
        report.bytesOnDiskAfter = bytesOnDisk
        if report.overBudget {
            log(.error, "\(path) is over its \(policy.diskBudgetBytes)-byte budget with every old track thinned; only summaries are left to keep")
        } else if !report.isEmpty {
            log(.notice, "retention: \(report.sessionsSimplifiedForAge + report.sessionsSimplifiedForBudget) track(s) simplified, "
                + "\(report.sessionsReducedToAnchors) reduced to anchors, \(report.receiptsDeleted) receipt photo(s) dropped, \(report.eventsDeleted) event(s) dropped, \(report.runsDeleted) empty run(s) dropped, "
                + "\(report.bytesOnDiskBefore) -> \(report.bytesOnDiskAfter) bytes")
        }
        return report
    }

    func trimEventLog() throws(StoreError) -> Int { try retention.trimEventLog() }

    func closedSessions(at level: TrackLevel, endedBefore cutoff: Int64?, limit: Int) throws(StoreError) -> [SessionID] {
        try retention.closedSessions(at: level, endedBefore: cutoff, limit: limit)
    }

    /// Rewrites the tracks of `sessions` at `level` in one transaction; returns the points removed.
    func thin(_ sessions: [SessionID], to level: TrackLevel) throws(StoreError) -> Int {
        defer { for session in sessions { nextChunkSequence[session.rawValue] = nil } }
        return try retention.thin(sessions, to: level)
    }
}
