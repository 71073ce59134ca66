import FairFuelSQLite

/// What a person is told when the store refuses a write: what is wrong and what to do, never
/// SQLite's statement text. The CLI and the web app say the same.
public enum StoreFailureText {
    /// The message for `error`, met while `doing` (e.g. "record the refuel") in the store at `path`.
    public static func message(_ error: any Error, path: String, doing: String) -> String {
        let sqlite: SQLiteError
        switch error {
        case let StoreError.sqlite(error): sqlite = error
        case let error as SQLiteError: sqlite = error
        case let error as StoreError: return "\(error)"
        default: return "cannot \(doing): \(error)"
        }
        if sqlite.isConstraint {
            // The checks run in the write's transaction, so this is a rule they do not know of (or a store edited by hand).
            if sqlite.message.contains("refuels.at_utc_ms") {
                return "cannot \(doing): a refuel at that moment is already recorded; nothing was changed"
            }
            return "cannot \(doing): the store refused it as inconsistent with what it holds (\(sqlite.message)); nothing was changed"
        }
        if sqlite.isCorrupt {
            return "cannot \(doing): \(path) is damaged (\(sqlite.message)); nothing was changed. "
                + "Check it with `fairfuel store check --full --db \(path)`; the service moves a damaged store aside at its next start, "
                + "and the books can be restored from a USB pull or a backup"
        }
        if sqlite.isReadOnly {
            return "cannot \(doing): \(path) cannot be written (\(sqlite.message)): run as its owner or a member of its group, "
                + "or check the permissions of the file and its directory and that the file system is mounted read-write; nothing was changed"
        }
        if sqlite.isBusy {
            return "cannot \(doing): another program held \(path) for too long (\(sqlite.message)); nothing was changed, try again"
        }
        if sqlite.isDiskFull {
            return "cannot \(doing): the disk holding \(path) is full; nothing was changed. Make room, or run `fairfuel store prune`"
        }
        return "cannot \(doing) in \(path): \(sqlite.message) (SQLite error \(sqlite.code)); nothing was changed"
    }
}
