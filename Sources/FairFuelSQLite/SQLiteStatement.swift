import CSQLite

/// A value bound to a statement parameter.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    public static func optional(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
    public static func optional(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }
    public static func optional(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}

/// A prepared statement; reused through the connection's cache.
public final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    public let sql: String

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, message: connection.lastErrorMessage, sql: sql)
        }
        handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds positional parameters (1-based in SQL, given in order here).
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case let .integer(v): code = sqlite3_bind_int64(handle, index, v)
        case let .real(v): code = sqlite3_bind_double(handle, index, v)
        case let .text(v): code = sqlite3_bind_text(handle, index, v, -1, fairfuel_sqlite_transient())
        case let .blob(v):
            code = v.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), fairfuel_sqlite_transient()) }
        }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: connection.lastErrorMessage, sql: sql)
        }
    }

    /// Binds without building an array: for the hot insert path.
    public func bind(int64 value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
    public func bind(double value: Double, at index: Int32) { sqlite3_bind_double(handle, index, value) }
    public func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }
    /// Binds a copy of `bytes` as a blob.
    public func bind(bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        let code = sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), fairfuel_sqlite_transient())
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: connection.lastErrorMessage, sql: sql) }
    }

    /// Advances; true when a row is available, false when done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: sqlite3_extended_errcode(connection.handle), message: connection.lastErrorMessage, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Resets for another execution with new bindings (bindings are kept until rebound).
    public func rewind() { sqlite3_reset(handle) }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// The column as stored, whatever its type (for copying rows between databases).
    public func value(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(double(column))
        case SQLITE_TEXT: .text(text(column) ?? "")
        default: .blob(blob(column))
        }
    }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }
    /// A blob column's bytes, valid only inside `body` (until the statement moves on).
    public func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }
    public func blob(_ column: Int32) -> [UInt8] { withBlob(column) { Array($0) } }
    public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
}
