import FairFuelSQLite

/// A named schema step. Once shipped, a migration is never edited: later changes are new migrations.
public struct Migration: Sendable {
    public var name: String
    public var sql: String
    /// Work SQL cannot say (re-encoding data), run after `sql`.
    public var body: (@Sendable (SQLiteConnection) throws -> Void)?
    /// False for a step that cannot run inside a transaction (VACUUM); it must be safe to repeat,
    /// since a power cut may come after it ran and before it was recorded.
    public var inTransaction: Bool

    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
        body = nil
        inTransaction = true
    }

    public init(_ name: String, sql: String = "", inTransaction: Bool = true, body: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        self.name = name
        self.sql = sql
        self.body = body
        self.inTransaction = inTransaction
    }
}

/// Why the store could not be opened or migrated.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file was written by a newer fairfuel: refusing beats a silent downgrade.
    case newerSchema(path: String, unknownMigrations: [String])
    case sqlite(SQLiteError)
    case invalid(String)
    case notFound(String)
    /// Held back until the person confirms it (the operations' `force`); the caller words how.
    case needsConfirmation(StoreConfirmation)
    /// The disk (or the file system holding the store) is full; the write was retried after pruning.
    case diskFull(path: String, operation: String)
    /// A stored track chunk cannot be decoded.
    case corruptTrack(session: Int64, sequence: Int64, reason: String)
    /// Start-up found the file corrupt or unreadable and could not move it aside.
    case cannotMoveAside(path: String, reason: String)
    /// The file system holding the store is read-only (an SD card remounted read-only after errors).
    case readOnlyFileSystem(path: String)

    public var description: String {
        switch self {
        case let .newerSchema(path, unknown):
            "\(path) was written by a newer fairfuel (unknown migrations: \(unknown.joined(separator: ", "))); upgrade fairfuel instead of downgrading the store"
        case let .sqlite(error): error.description
        case let .invalid(message): message
        case let .notFound(message): message
        case let .needsConfirmation(confirmation): confirmation.text(goAhead: "add --force")
        case let .diskFull(path, operation): "the disk holding \(path) is full (\(operation)); pruned the oldest tracks and will retry"
        case let .corruptTrack(session, sequence, reason): "track chunk \(sequence) of session \(session) is corrupt: \(reason)"
        case let .cannotMoveAside(path, reason): "\(path) is corrupt or unreadable and cannot be moved aside: \(reason)"
        case let .readOnlyFileSystem(path): "the file system holding \(path) is read-only; nothing can be written there until it is writable again"
        }
    }
}

extension StoreError {
    /// What kind of refusal it is, for callers to answer by (a web status, an exit code) rather than by its wording.
    public enum Kind: Sendable, Equatable {
        /// Goes ahead once confirmed (`force`).
        case needsConfirmation
        /// What it names does not exist.
        case notFound
        /// Refused as it is: nothing to confirm.
        case invalid
        /// The store cannot do it now (the disk, the file, SQLite).
        case unavailable
    }

    public var kind: Kind {
        switch self {
        case .needsConfirmation: .needsConfirmation
        case .notFound: .notFound
        case .invalid: .invalid
        case .newerSchema, .sqlite, .diskFull, .corruptTrack, .cannotMoveAside, .readOnlyFileSystem: .unavailable
        }
    }

    /// What a change held back until confirmed would do; nil for any other refusal.
    public var confirmation: StoreConfirmation? {
        guard case let .needsConfirmation(confirmation) = self else { return nil }
        return confirmation
    }
}

/// Applies named migrations in order, each in its own transaction, recording them in `schema_migrations`.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Names already applied to `connection`'s database, in the order applied.
    public func applied(in connection: SQLiteConnection, create: Bool = true) throws(StoreError) -> [String] {
        do {
            if create {
                try connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_order INTEGER NOT NULL)")
            } else if try connection.scalarInt(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") == 0
            {
                throw StoreError.invalid("\(connection.path) is not a fairfuel store (no schema); run a command that writes to it first")
            }
            return try connection.query("SELECT name FROM schema_migrations ORDER BY applied_order") { $0.text(0) ?? "" }
        } catch {
            throw StoreError(error)
        }
    }

    /// Brings the database up to date; refuses a database that knows migrations this build does not.
    public func migrate(_ connection: SQLiteConnection) throws(StoreError) {
        let done = try applied(in: connection)
        let known = Set(migrations.map(\.name))
        let unknown = done.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw .newerSchema(path: connection.path, unknownMigrations: unknown) }
        for (order, migration) in migrations.enumerated() where !done.contains(migration.name) {
            do {
                if migration.inTransaction { try connection.execute("BEGIN IMMEDIATE") }
                if !migration.sql.isEmpty { try connection.execute(migration.sql) }
                connection.clearStatementCache()
                try migration.body?(connection)
                if !migration.inTransaction { try connection.execute("BEGIN IMMEDIATE") }
                try connection.run(
                    "INSERT INTO schema_migrations (name, applied_order) VALUES (?, ?)", .text(migration.name), .int(order))
                try connection.execute("COMMIT")
            } catch {
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                connection.clearStatementCache()
                switch error {
                case let error as SQLiteError: throw .sqlite(error)
                case let error as StoreError: throw error
                default: throw .invalid("migration \(migration.name) failed: \(error)")
                }
            }
        }
        connection.clearStatementCache()
    }
}

extension StoreError {
    /// Whatever a store body threw, as a store error: SQLite's own, ours as they are, and
    /// anything else as invalid.
    init(_ error: any Error) {
        switch error {
        case let error as StoreError: self = error
        case let error as SQLiteError: self = .sqlite(error)
        default: self = .invalid("\(error)")
        }
    }
}
