import FairFuelCore
import FairFuelSQLite

extension TripStore {
    /// Opens the service's store after a quick integrity check (`PRAGMA quick_check`).
    ///
    /// A corrupt or unreadable file is moved aside as `path.corrupt-<UTC stamp>` with its
    /// WAL (never deleted), logged at `.error`, and a fresh store created with what can still
    /// be read of it (`salvage(from:)`) and told so in its event log (`store_recovered`). A file from a newer fairfuel is refused
    /// (`.newerSchema`), and a busy one reported, never moved. `wallClockUTCMs` (the system
    /// clock, perhaps wrong on a board without RTC) only names the moved file.
    public static func openCheckingIntegrity(
        path: String, configuration: StoreConfiguration = StoreConfiguration(), wallClockUTCMs: Int64?
    ) throws(StoreError) -> (store: TripStore, report: StoreStartupReport) {
        let files = SQLiteDatabaseFiles(path: path)
        var report = StoreStartupReport()
        report.created = !files.exists
        do {
            let store = try TripStore(path: path, configuration: configuration)
            let problems = try store.wrap { () throws(SQLiteError) in try store.connection.quickCheck() }
            if problems.isEmpty { return (store, report) }
            report.problems = problems
        } catch let .sqlite(error) where error.isUnreadableFile && files.exists {
            report.problems = [error.description]
        } catch let .corruptTrack(session, sequence, reason) where files.exists {
            report.problems = ["track chunk \(sequence) of session \(session): \(reason)"]
        }
        let stamp = wallClockUTCMs.map(ISO8601.basicDateTime(utcMs:)) ?? "unknown-time"
        let moved: String
        do {
            moved = try files.moveAside(suffix: files.freeSuffix(".corrupt-\(stamp)"))
        } catch {
            throw .cannotMoveAside(path: path, reason: error.description)
        }
        report.movedAsidePath = moved
        let summary = report.problems.prefix(3).joined(separator: "; ")
        configuration.log?(.error, "the store \(path) is corrupt or unreadable (\(summary)); moved it to \(moved) and started a new one")
        let store = try TripStore(path: path, configuration: configuration)
        // What still reads comes over: above all the drivers and the car, without which every
        // later drive would be untracked, then the books and tracks.
        let salvage = store.salvage(from: moved)
        report.salvage = salvage
        configuration.log?(.error, "salvaged from \(moved): \(salvage.summary)")
        try store.logEvent(kind: "store_recovered", detail: "moved to \(moved): \(summary); salvaged \(salvage.summary)", utcMs: nil)
        return (store, report)
    }
}
