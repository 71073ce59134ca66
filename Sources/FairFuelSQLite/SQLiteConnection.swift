import CSQLite

/// One connection to an SQLite database file: a thin, typed wrapper of the C API.
///
/// Not thread-safe by itself: one connection per thread (the store keeps one
/// writer and opens readers separately; WAL lets readers run beside the writer).
public final class SQLiteConnection {
    public let path: String
    let handle: OpaquePointer
    private var statementCache: [String: SQLiteStatement] = [:]

    public enum Mode: Sendable {
        case readWrite
        case readOnly
        /// Reads a file nothing can change (on a read-only file system): no locks and no WAL
        /// index, which such a file system cannot give; a WAL beside the file is not read.
        case immutable
    }

    /// Opens (creating it in `.readWrite` mode) the database at `path`, through the VFS
    /// registered as `vfs` (nil: SQLite's default).
    public init(path: String, mode: Mode = .readWrite, vfs: String? = nil) throws(SQLiteError) {
        self.path = path
        var db: OpaquePointer?
        let flags = switch mode {
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: SQLITE_OPEN_READONLY
        case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        let name = mode == .immutable ? Self.immutableURI(path) : path
        let code = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, vfs)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: message + " (\(path))")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    /// `file:PATH?immutable=1`, with the characters a URI gives meaning to escaped.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:\(escaped)?immutable=1"
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without results.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A prepared statement, cached by its SQL text: preparing happens once per connection.
    public func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statementCache[sql] {
            cached.reset()
            return cached
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `sql` with `arguments` and returns the rows changed.
    @discardableResult
    public func run(_ sql: String, _ arguments: SQLiteValue...) throws(SQLiteError) -> Int {
        let statement = try statement(sql)
        defer { statement.rewind() }
        try statement.bind(arguments)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps each row.
    public func query<T>(_ sql: String, _ arguments: SQLiteValue..., row: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
        let statement = try statement(sql)
        defer { statement.rewind() }
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// Runs `sql` without keeping its prepared statement: for the checks and start-up, resume and
    /// reload writes that run once in a while. A cached statement stays in memory as long as the
    /// connection (PRAGMA quick_check's program alone is 75 KiB; the daemon's start-up statements
    /// were 190 KiB of its heap, kept for nothing).
    @discardableResult
    public func runOnce(_ sql: String, _ arguments: SQLiteValue...) throws(SQLiteError) -> Int {
        let statement = try SQLiteStatement(connection: self, sql: sql)
        try statement.bind(arguments)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// `query` without keeping the prepared statement (see `runOnce`).
    public func queryOnce<T>(_ sql: String, _ arguments: SQLiteValue..., row: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
        let statement = try SQLiteStatement(connection: self, sql: sql)
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// The number of prepared statements the connection keeps.
    public var cachedStatementCount: Int { statementCache.count }

    /// The first column of the first row, or nil when there is no row.
    public func scalarInt(_ sql: String, _ arguments: SQLiteValue...) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql)
        defer { statement.rewind() }  // a statement left on a row would hold its read transaction open
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.isNull(0) ? nil : statement.int64(0)
    }

    public func scalarText(_ sql: String, _ arguments: SQLiteValue...) throws(SQLiteError) -> String? {
        let statement = try statement(sql)
        defer { statement.rewind() }
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ kind: String = "IMMEDIATE", _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind)")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }
    public var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }
    public var lastErrorCode: Int32 { sqlite3_extended_errcode(handle) }
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Gives up waiting for a lock after `milliseconds` (then SQLITE_BUSY).
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Switches the file to write-ahead logging (a no-op when it already is) and returns the
    /// journal mode SQLite reports. Two processes opening one new file at once both ask for the
    /// exclusive lock this switch needs; SQLite then answers SQLITE_BUSY at once, without its busy
    /// handler (it would deadlock), so this waits and asks again for up to `waitingMilliseconds`.
    @discardableResult
    public func enableWriteAheadLog(waitingMilliseconds: Int32 = 5_000) throws(SQLiteError) -> String? {
        var waitedMilliseconds: Int32 = 0
        var pauseMilliseconds: Int32 = 2
        while true {
            do {
                return try scalarText("PRAGMA journal_mode = WAL")
            } catch {
                let busy = error.primaryCode == SQLITE_BUSY || error.primaryCode == SQLITE_LOCKED
                guard busy, waitedMilliseconds < waitingMilliseconds else { throw error }
                sqlite3_sleep(pauseMilliseconds)
                waitedMilliseconds += pauseMilliseconds
                pauseMilliseconds = min(pauseMilliseconds * 2, 100)
            }
        }
    }

    /// The integer a pragma returns (`page_count`, `freelist_count`, `auto_vacuum`, ...).
    public func pragmaInt(_ name: String) throws(SQLiteError) -> Int64 {
        try scalarInt("PRAGMA \(name)") ?? 0
    }

    /// `PRAGMA quick_check`: an empty array when the file is sound, else at most `maximumErrors` problems.
    public func quickCheck(maximumErrors: Int = 10) throws(SQLiteError) -> [String] {
        let rows = try queryOnce("PRAGMA quick_check(\(maximumErrors))") { $0.text(0) ?? "" }
        return rows == ["ok"] ? [] : rows
    }

    /// `PRAGMA integrity_check`: like `quickCheck`, and also checks that indexes match their tables.
    public func integrityCheck(maximumErrors: Int = 10) throws(SQLiteError) -> [String] {
        let rows = try queryOnce("PRAGMA integrity_check(\(maximumErrors))") { $0.text(0) ?? "" }
        return rows == ["ok"] ? [] : rows
    }

    /// How a WAL checkpoint treats readers and the writer.
    public enum CheckpointMode: Sendable {
        /// Copies what it can without waiting for anyone.
        case passive
        /// Waits for readers to finish with the WAL, then copies all of it and restarts it from the start.
        case restart
        /// Like `restart`, and truncates the WAL file to zero bytes.
        case truncate
    }

    /// Copies WAL frames into the database; returns the frames in the WAL and those now in the database.
    @discardableResult
    public func checkpoint(_ mode: CheckpointMode) throws(SQLiteError) -> (walFrames: Int, checkpointedFrames: Int) {
        let raw = switch mode {
        case .passive: SQLITE_CHECKPOINT_PASSIVE
        case .restart: SQLITE_CHECKPOINT_RESTART
        case .truncate: SQLITE_CHECKPOINT_TRUNCATE
        }
        var log: Int32 = 0
        var done: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(handle, nil, raw, &log, &done)
        guard code == SQLITE_OK || code == SQLITE_BUSY else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: lastErrorMessage, sql: "checkpoint")
        }
        return (Int(log), Int(done))
    }

    /// Drops cached statements (after a schema change).
    public func clearStatementCache() {
        statementCache.removeAll()
    }
}
