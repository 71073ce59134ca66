import CSQLite

/// An SQLite call failed: the result code, SQLite's message and the statement.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, `SQLITE_FULL`, ...).
    public var code: Int32
    public var message: String
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { code & 0xFF }

    public var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
    public var isDiskFull: Bool { primaryCode == SQLITE_FULL }
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    public var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }
    /// The file or its directory cannot be written (permissions, a read-only file system or a read-only open).
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY || primaryCode == SQLITE_PERM }
    /// The file itself is bad (corrupt, not a database, unreadable), not the moment (busy, locked, full).
    public var isUnreadableFile: Bool {
        isCorrupt || primaryCode == SQLITE_CANTOPEN || primaryCode == SQLITE_FORMAT
            || code == SQLITE_IOERR | (1 << 8) || code == SQLITE_IOERR | (2 << 8) || code == SQLITE_IOERR  // IOERR_READ, IOERR_SHORT_READ
    }

    public var description: String {
        let name = String(cString: sqlite3_errstr(code))
        var text = "SQLite error \(code) (\(name)): \(message)"
        if let sql { text += " [\(sql.prefix(120))]" }
        return text
    }
}
