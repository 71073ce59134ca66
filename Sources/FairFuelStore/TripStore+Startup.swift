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
        if files.exists && files.isOnReadOnlyFileSystem {
            // Nothing can be moved aside nor written: read what the service needs, hold the rest.
            report.readOnlyFileSystem = true
            configuration.log?(.error, "the file system holding \(path) is read-only; "
                + "the service runs and holds its records in memory until it is writable again")
            let store = try TripStore(path: path, readOnly: true, configuration: configuration)
            store.waitsForWritableFileSystem = true
            return (store, report)
        }
        do {
            let store = try openMakingRoom(path: path, configuration: configuration, report: &report)
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

    /// Below this many free bytes a failed open is taken for a full disk: the `-shm` index
    /// (32 KiB) and the WAL's first frames need that much.
    public static let fullDiskOpenBytes: Int64 = 256 * 1024

    /// The file system has room again for the shared WAL index (`reopen()` after a full-disk start).
    public var hasRoomToShareIndex: Bool { (SQLiteDatabaseFiles(path: path).freeBytes ?? 0) >= Self.fullDiskOpenBytes }

    /// Opens the existing store even on a full disk, which cannot give SQLite its `-shm` index:
    /// first by spending the reserve, else with the WAL index in this process's memory (no
    /// other process can read the store until `reopen()`). Never taken for a corrupt file.
    static func openMakingRoom(
        path: String, configuration: StoreConfiguration, report: inout StoreStartupReport
    ) throws(StoreError) -> TripStore {
        let files = SQLiteDatabaseFiles(path: path)
        do {
            return try TripStore(path: path, configuration: configuration)
        } catch let error where files.exists && (error.isDiskFull || (files.freeBytes ?? .max) < fullDiskOpenBytes) {
            report.diskFull = true
            configuration.log?(.error, "the disk holding \(path) is full at start-up (\(error)); "
                + "the service runs and holds its records in memory until there is room")
            if files.releaseReserve() {
                configuration.log?(.error, "the disk holding \(path) is full: released the \(fittedReserveBytes(path: path, configuration: configuration))-byte reserve to start")
                if let store = try? TripStore(path: path, configuration: configuration) { return store }
            }
            let store = try TripStore(path: path, configuration: configuration, privateWALIndex: true)
            report.walIndexInMemory = true
            configuration.log?(.error, "no room for \(files.sharedMemoryPath): the store's WAL index is kept in memory; "
                + "other commands cannot read the store until there is room (`fairfuel status` answers)")
            return store
        }
    }
}
