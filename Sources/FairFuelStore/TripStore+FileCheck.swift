import FairFuelCore
import FairFuelSQLite

/// What `TripStore.checkFileInPlace(wallClockUTCMs:)` found.
public enum StoreFileCheck: Sendable, Equatable {
    /// The path still names the file the connection has open.
    case inPlace
    /// The file had been deleted (or another put in its place, `replacedMovedTo`): the data was
    /// written back at the path from the still-open connection, which now works on it.
    case restored(replacedMovedTo: String?)
    /// Deleted or replaced, and the data could not be written back yet (`reason`); the
    /// connection goes on with the unlinked file and the next check tries again.
    case notRestored(reason: String)
}

extension TripStore {
    /// Whether the database file at `path` is still the one the connection writes: someone may
    /// have deleted it (`rm fairfuel.db*`) or put another file there, and every later write
    /// would go to an unlinked file, lost at the next start. If so, the data is written back
    /// at `path` from the open connection (`VACUUM INTO`: a consistent copy of every commit,
    /// the WAL's too), the connection reopened on it, and `store_restored` logged in the store.
    /// A file found in its place is moved aside (`.replaced-<stamp>`), never deleted. One
    /// `stat` when nothing happened: cheap enough for every housekeeping tick.
    ///
    /// `lockingCopy` is handed the copy's path before it is moved to `path` (the service moves
    /// its single-instance lock onto it there); false gives the copy up and tries again next time.
    public func checkFileInPlace(wallClockUTCMs: Int64?, lockingCopy: (String) -> Bool = { _ in true }) -> StoreFileCheck {
        let current = SQLiteDatabaseFiles.identity(of: path)
        guard let opened = fileIdentity else {
            fileIdentity = current
            return .inPlace
        }
        if current == opened { return .inPlace }
        let files = SQLiteDatabaseFiles(path: path)
        let temporary = path + ".restoring"
        SQLiteDatabaseFiles.remove(temporary)
        do {
            // A bound name, not one quoted into the text: String.replacing would link the regex engine.
            try connection.runOnce("VACUUM INTO ?", .text(temporary))
        } catch {
            SQLiteDatabaseFiles.remove(temporary)
            return .notRestored(reason: "cannot copy the open store to \(temporary): \(error)")
        }
        SQLiteDatabaseFiles.sync(temporary)
        guard lockingCopy(temporary) else {
            SQLiteDatabaseFiles.remove(temporary)
            return .notRestored(reason: "cannot take the single-instance lock on \(temporary)")
        }
        var movedAside: String?
        if current != nil {
            // Somebody's file (an empty store a command created?): kept, with its WAL, before
            // closing ours, whose last checkpoint would otherwise remove that WAL.
            let stamp = wallClockUTCMs.map(ISO8601.basicDateTime(utcMs:)) ?? "unknown-time"
            do {
                movedAside = try files.moveAside(suffix: files.freeSuffix(".replaced-\(stamp)"))
            } catch {
                SQLiteDatabaseFiles.remove(temporary)
                return .notRestored(reason: "another file is at \(path) and cannot be moved aside: \(error)")
            }
        }
        // In place before the old connection closes: nothing has opened the copy, so the WAL and
        // index that close removes by name can only be the deleted file's.
        guard SQLiteDatabaseFiles.moveFile(temporary, to: path) else {
            SQLiteDatabaseFiles.remove(temporary)
            return .notRestored(reason: "cannot move \(temporary) to \(path)")
        }
        files.syncDirectory()
        do {
            try reopen {
                SQLiteDatabaseFiles.remove(files.walPath)
                SQLiteDatabaseFiles.remove(files.sharedMemoryPath)
            }
        } catch {
            return .notRestored(reason: "written back to \(path) but cannot reopen it: \(error)")
        }
        let detail = "\(path) was deleted while the service ran" + (movedAside.map { " (another file there was moved to \($0))" } ?? "")
            + "; written back from the open connection"
        log(.error, detail)
        // The wall clock (maybe wrong without an RTC) only names a moved file, as at start-up.
        _ = try? logEvent(kind: "store_restored", detail: detail, utcMs: nil)
        return .restored(replacedMovedTo: movedAside)
    }
}
