import FairFuelSQLite

/// A named schema step. Once shipped, a migration is never edited: later changes are new migrations.
public struct Migration: Sendable {
    public var name: String
    public var sql: String
    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }
}

/// Why the store could not be opened or migrated.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file was written by a newer fairfuel: refusing beats a silent downgrade.
    case newerSchema(path: String, unknownMigrations: [String])
    case sqlite(SQLiteError)
    case invalid(String)
    case notFound(String)

    public var description: String {
        switch self {
        case let .newerSchema(path, unknown):
            "\(path) was written by a newer fairfuel (unknown migrations: \(unknown.joined(separator: ", "))); upgrade fairfuel instead of downgrading the store"
        case let .sqlite(error): error.description
        case let .invalid(message): message
        case let .notFound(message): message
        }
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
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .invalid("\(error)")
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
                try connection.execute("BEGIN IMMEDIATE")
                try connection.execute(migration.sql)
                try connection.run(
                    "INSERT INTO schema_migrations (name, applied_order) VALUES (?, ?)", .text(migration.name), .int(order))
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw .sqlite(error)
            }
        }
        connection.clearStatementCache()
    }
}
