import FairFuelCore
import FairFuelSQLite
import Synchronization

/// The database façade of one store file: opens it, migrates it, and hands out the writer and readers.
///
/// A writer's database sets WAL mode, incremental vacuum on a new file, and the durability and
/// checkpoint size of `configuration`. A reader's (`readOnly`) only checks that this build knows
/// the file's schema; WAL lets readers read committed data while the writer works, never blocking it.
/// The repositories hold the database, not its connection: `reopen(between:)` replaces it.
public final class StoreDatabase {
    public let path: String
    public let configuration: StoreConfiguration
    /// The writer's (or a reader's) connection; replaced by `reopen(between:)` and `reopenWritable()`.
    public private(set) var connection: SQLiteConnection
    /// The VFS the connection goes through (nil: SQLite's default), for reopening.
    let vfsName: String?
    /// The counting VFS the connection goes through, when the configuration asked for one.
    let countingVFS: SQLiteCountingVFS?
    /// The WAL index lives in this process's memory (opened on a full disk): other processes
    /// cannot read the store until `reopen(between:)` is done with room on the disk.
    public private(set) var walIndexIsPrivate: Bool
    /// A reader opened the file as immutable (its file system is read-only and SQLite could not
    /// use the WAL index): what a WAL beside it holds is not seen.
    public let readsImmutableFile: Bool
    /// The file the connection opened at `path`: a different one (or none) means the store was
    /// deleted or replaced under its owner.
    var fileIdentity: FileIdentity?
    /// Opened for reading only (`openReader()`'s kind): writes are refused by SQLite.
    public private(set) var readOnly: Bool
    /// The migrations the file had before this open migrated it (empty: a new file, or a reader).
    public let migrationsAppliedBefore: [String]

    private static let vfsCounter = Atomic<Int>(0)

    /// Opens (creating and migrating as needed) the store at `path`.
    ///
    /// `privateWALIndex` (start-up on a full disk only): the WAL index is kept in this process's
    /// memory (exclusive locking) instead of the `-shm` file, which a full disk cannot extend.
    public init(
        path: String, readOnly: Bool = false, configuration: StoreConfiguration = StoreConfiguration(), privateWALIndex: Bool = false
    ) throws(StoreError) {
        self.path = path
        self.configuration = configuration
        self.readOnly = readOnly
        var vfsName: String?
        var counting: SQLiteCountingVFS?
        switch configuration.vfs {
        case .system:
            break
        case .counting:
            let name = "fairfuel-counting-\(Self.vfsCounter.add(1, ordering: .relaxed).newValue)"
            do { counting = try SQLiteCountingVFS.register(name: name) } catch { throw .sqlite(error) }
            vfsName = name
        case let .named(name):
            vfsName = name
            counting = SQLiteCountingVFS.named(name)
        }
        countingVFS = counting
        self.vfsName = vfsName
        // The store holds the pairing secret and every trip: owner and group only (0640), WAL and SHM alike.
        if !readOnly { SQLiteDatabaseFiles(path: path).createIfMissing(mode: 0o640) }
        do {
            if readOnly {
                (connection, readsImmutableFile) = try Self.openForReading(path: path, vfs: vfsName, configuration: configuration)
            } else {
                connection = try Self.openConnection(
                    path: path, readOnly: false, vfs: vfsName, configuration: configuration, privateIndex: privateWALIndex)
                readsImmutableFile = false
            }
        } catch {
            throw .sqlite(error)
        }
        walIndexIsPrivate = privateWALIndex
        fileIdentity = SQLiteDatabaseFiles.identity(of: path)
        let migrator = Migrator(StoreSchema.migrations)
        if readOnly {
            let applied = try migrator.applied(in: connection, create: false)
            let known = Set(StoreSchema.migrations.map(\.name))
            let unknown = applied.filter { !known.contains($0) }
            if !unknown.isEmpty { throw .newerSchema(path: path, unknownMigrations: unknown) }
            migrationsAppliedBefore = []
        } else {
            let appliedBefore = try migrator.applied(in: connection)
            do {
                try migrator.migrate(connection)
            } catch let error where error.isDiskFull {
                // A schema upgrade needs room for its pages: nothing to hold in memory, refuse clearly.
                let pending = StoreSchema.migrations.count - appliedBefore.count
                throw .invalid("the disk holding \(path) is full and the store needs \(pending) schema upgrade step(s) first; "
                    + "free some space and start again (nothing was changed)")
            }
            migrationsAppliedBefore = appliedBefore
        }
    }

    /// A new read-only connection to the same file (through the same VFS), for a reader beside the writer.
    public func openReader() throws(StoreError) -> SQLiteConnection {
        do { return try Self.openForReading(path: path, vfs: vfsName, configuration: configuration).0 } catch { throw .sqlite(error) }
    }

    /// Runs `body` in one `IMMEDIATE` transaction; with `durable`, the commit is synced to disk
    /// before returning (every commit is, under `.syncEveryCommit`).
    func transaction<T>(durable: Bool, _ body: () throws -> T) throws(StoreError) -> T {
        let toggle = durable && configuration.durability != .syncEveryCommit
        do {
            if toggle { try connection.execute("PRAGMA synchronous = FULL") }
            defer { if toggle { try? connection.execute("PRAGMA synchronous = NORMAL") } }
            return try connection.transaction("IMMEDIATE", body)
        } catch {
            throw StoreError(error)
        }
    }

    /// Closes the connection and opens the file at `path` again, with the shared WAL index.
    /// `between` runs with no connection open (the old one's last checkpoint done). When the
    /// file cannot be opened again, the database goes on with a connection as it was opened at first.
    public func reopen(between: () -> Void = {}) throws(StoreError) {
        let privateBefore = walIndexIsPrivate
        do {
            // The old connection must be closed first: its exclusive lock would keep the new one out.
            connection = try SQLiteConnection(path: ":memory:")
            between()
            connection = try Self.openConnection(path: path, readOnly: false, vfs: vfsName, configuration: configuration, privateIndex: false)
            walIndexIsPrivate = false
        } catch {
            if let again = try? Self.openConnection(path: path, readOnly: false, vfs: vfsName, configuration: configuration, privateIndex: privateBefore) {
                connection = again
            }
            fileIdentity = SQLiteDatabaseFiles.identity(of: path)
            throw .sqlite(error)
        }
        fileIdentity = SQLiteDatabaseFiles.identity(of: path)
    }

    /// Opens the file for writing in place of a reader's connection (its file system is writable
    /// again), migrating it if this build needs to. A failure leaves the reader as it was.
    func reopenWritable() throws(StoreError) {
        let writer: SQLiteConnection
        do {
            writer = try Self.openConnection(path: path, readOnly: false, vfs: vfsName, configuration: configuration, privateIndex: false)
        } catch {
            throw .sqlite(error)
        }
        try Migrator(StoreSchema.migrations).migrate(writer)
        connection = writer
        readOnly = false
        fileIdentity = SQLiteDatabaseFiles.identity(of: path)
    }

    /// Caps SQLite's page cache of the connection at `kib` KiB (at least 64).
    func limitPageCache(kib: Int) throws(SQLiteError) {
        try Self.limitPageCache(connection, kib: kib)
    }

    /// Opens `path` and sets the writer's (or the reader's) pragmas.
    static func openConnection(
        path: String, readOnly: Bool, vfs: String?, configuration: StoreConfiguration, privateIndex: Bool
    ) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: readOnly ? .readOnly : .readWrite, vfs: vfs)
        connection.setBusyTimeout(milliseconds: configuration.busyTimeoutMs)
        // Before the first read: SQLite then keeps the WAL index in heap memory and never maps `-shm`.
        if privateIndex { try connection.execute("PRAGMA locking_mode = EXCLUSIVE") }
        try connection.execute("PRAGMA foreign_keys = ON")
        if let kib = configuration.pageCacheKiB { try Self.limitPageCache(connection, kib: kib) }
        if !readOnly {
            if try connection.pragmaInt("page_count") == 0 {
                // Must precede the first table; older files get it from a migration.
                try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
            }
            // WAL: readers never block the writer, and a commit appends pages instead of rewriting them.
            try connection.enableWriteAheadLog(waitingMilliseconds: configuration.busyTimeoutMs)
            try connection.execute("PRAGMA synchronous = \(configuration.durability == .syncEveryCommit ? "FULL" : "NORMAL")")
            let pageSize = max(512, try connection.pragmaInt("page_size"))
            let walBytes = fittedWALAllowanceBytes(path: path, configuration: configuration)
            // Checkpoint before the WAL (frames of a page and a 24-byte header) outgrows its allowance.
            try connection.execute("PRAGMA wal_autocheckpoint = \(max(16, walBytes / (pageSize + 24)))")
            _ = try connection.scalarInt("PRAGMA journal_size_limit = \(walBytes)")
        } else {
            try connection.execute("PRAGMA query_only = 1")
        }
        return connection
    }

    /// Opens `path` for reading: as any reader does when it can; on a read-only file system
    /// where SQLite cannot make the WAL index (its writer stopped cleanly, so there is none), as
    /// an immutable file. True in the pair when it was opened immutable.
    static func openForReading(
        path: String, vfs: String?, configuration: StoreConfiguration
    ) throws(SQLiteError) -> (SQLiteConnection, Bool) {
        do {
            let connection = try openConnection(path: path, readOnly: true, vfs: vfs, configuration: configuration, privateIndex: false)
            // The first read is what needs the WAL index.
            _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
            return (connection, false)
        } catch let error where !error.isCorrupt && SQLiteDatabaseFiles(path: path).isOnReadOnlyFileSystem {
            let connection = try SQLiteConnection(path: path, mode: .immutable, vfs: vfs)
            try connection.execute("PRAGMA query_only = 1")
            if let kib = configuration.pageCacheKiB { try limitPageCache(connection, kib: kib) }
            _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
            return (connection, true)
        }
    }

    /// The WAL's allowance fitted to the file system: `walAllowanceBytes`, at most half of
    /// the file system (at least 64 KiB). On a disk smaller than the allowance the WAL would
    /// otherwise never be checkpointed before it alone filled the disk, and then could not be.
    static func fittedWALAllowanceBytes(path: String, configuration: StoreConfiguration) -> Int64 {
        let allowance = configuration.retention.walAllowanceBytes
        guard let total = SQLiteDatabaseFiles(path: path).fileSystemBytes, total > 0 else { return allowance }
        return max(64 * 1024, min(allowance, total / 2))
    }

    private static func limitPageCache(_ connection: SQLiteConnection, kib: Int) throws(SQLiteError) {
        // A negative cache_size is a budget in KiB, whatever the page size.
        try connection.execute("PRAGMA cache_size = -\(max(64, kib))")
    }
}
