import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite

/// The single façade over the SQLite store: opens, migrates, and reads and writes
/// provisioning, sessions, trip points, untracked driving, refuels and splits.
///
/// One `TripStore` is the writer; readers open their own with `.readOnly`
/// (WAL lets them read committed data while the writer works).
public final class TripStore {
    public let path: String
    public let connection: SQLiteConnection

    /// Opens (creating and migrating as needed) the store at `path`.
    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        do {
            connection = try SQLiteConnection(path: path, mode: readOnly ? .readOnly : .readWrite)
            connection.setBusyTimeout(milliseconds: 5_000)
            try connection.execute("PRAGMA foreign_keys = ON")
            if !readOnly {
                // WAL: readers never block the writer; synchronous=NORMAL syncs at checkpoints,
                // and the few commits that must survive a power cut ask for FULL themselves.
                _ = try connection.scalarText("PRAGMA journal_mode = WAL")
                try connection.execute("PRAGMA synchronous = NORMAL")
            }
        } catch {
            throw .sqlite(error)
        }
        if readOnly {
            let applied = try Migrator(StoreSchema.migrations).applied(in: connection, create: false)
            let known = Set(StoreSchema.migrations.map(\.name))
            let unknown = applied.filter { !known.contains($0) }
            if !unknown.isEmpty { throw .newerSchema(path: path, unknownMigrations: unknown) }
        } else {
            try Migrator(StoreSchema.migrations).migrate(connection)
        }
    }

    /// Runs `body` in one transaction; with `durable`, the commit is synced to disk before returning.
    public func write<T>(durable: Bool = false, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            if durable { try connection.execute("PRAGMA synchronous = FULL") }
            defer { if durable { try? connection.execute("PRAGMA synchronous = NORMAL") } }
            return try connection.transaction("IMMEDIATE", body)
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .invalid("\(error)")
        }
    }

    func wrap<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .sqlite(error) }
    }
}
