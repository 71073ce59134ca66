import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite
import Synchronization

/// The single façade over the SQLite store: opens, migrates, and reads and writes
/// provisioning, sessions, trip points, untracked driving, refuels and splits, and
/// keeps the file within its retention policy.
///
/// One `TripStore` is the writer; readers open their own with `readOnly` (WAL lets
/// them read committed data while the writer works, and never blocks it).
public final class TripStore {
    public let path: String
    /// The writer's (or reader's) connection; replaced by `reopen()` and when a deleted file is put back.
    public private(set) var connection: SQLiteConnection
    /// The VFS the connection goes through (nil: SQLite's default), for reopening.
    let vfsName: String?
    /// The WAL index lives in this process's memory (the store was opened on a full disk): other
    /// processes cannot read the store until `reopen()` is done with room on the disk.
    public private(set) var walIndexIsPrivate: Bool
    /// The file the connection opened at `path`: a different one (or none) means the store was
    /// deleted or replaced under the service (`checkFileStillInPlace()`).
    var fileIdentity: FileIdentity?
    public let configuration: StoreConfiguration
    /// The counting VFS the connection goes through, when the configuration asked for one.
    let countingVFS: SQLiteCountingVFS?
    /// Next chunk number of recently written sessions (ids are never reused).
    var nextChunkSequence: [Int64: Int64] = [:]
    /// Scratch space for encoding chunks, kept between writes.
    var chunkBuffer: [UInt8] = []
    /// Writes refused in a row by a full disk; relief (and its log line) comes on the first and every 60th.
    var diskFullStreak = 0
    /// The disk reserve is not in place (given up for a full disk, or no room to make it):
    /// `retakeDiskReserveIfMissing()` tries again.
    public internal(set) var diskReserveMissing = false
    /// The WAL and free bytes when a truncating checkpoint last failed to give the WAL back (the
    /// disk still full): it is tried again only once either has changed.
    var walTruncationFailedAt: (walBytes: Int64, freeBytes: Int64)?
    /// The writer was opened for reading only because its file system is read-only: writes are
    /// refused (`.readOnlyFileSystem`) until `reopenWritable()` succeeds.
    public internal(set) var waitsForWritableFileSystem = false
    /// The last write failed because the file system went read-only under the store (statvfs may
    /// not show it: ext4 after errors stays mounted read-write and fails writes with `EROFS`).
    public private(set) var refusedForReadOnlyFileSystem = false
    /// A reader opened the file as immutable (its file system is read-only and SQLite could not
    /// use the WAL index): what a WAL beside it holds is not seen.
    public private(set) var readsImmutableFile = false
    /// Runs up to this id were pruned by this process's last retention pass (`pruneRuns()`).
    var runsPrunedThrough: Int64 = 0
    /// When set, every finished trip, refuel, split and correction queues its uplink message in
    /// the record's own transaction (TripStore+Uplink.swift); nil: no uplink, nothing queued.
    public var uplink: OutboxUplink?

    private static let vfsCounter = Atomic<Int>(0)

    /// Opens (creating and migrating as needed) the store at `path`.
    ///
    /// A writer sets WAL mode, incremental vacuum on a new file, and the durability and
    /// checkpoint size of `configuration`. A reader (`readOnly`) only checks that this
    /// build knows the file's schema.
    ///
    /// `privateWALIndex` (start-up on a full disk only): the WAL index is kept in this process's
    /// memory (exclusive locking) instead of the `-shm` file, which a full disk cannot extend;
    /// `reopen()` goes back to the shared file once there is room.
    public init(
        path: String, readOnly: Bool = false, configuration: StoreConfiguration = StoreConfiguration(), privateWALIndex: Bool = false
    ) throws(StoreError) {
        self.path = path
        self.configuration = configuration
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
        chunkBuffer.reserveCapacity(2 * TrackChunkCodec.maximumBlobBytes)
        // The store holds the pairing secret and every trip: owner and group only (0640), WAL and SHM alike.
        if !readOnly { SQLiteDatabaseFiles(path: path).createIfMissing(mode: 0o640) }
        do {
            if readOnly {
                (connection, readsImmutableFile) = try Self.openForReading(path: path, vfs: vfsName, configuration: configuration)
            } else {
                connection = try Self.openConnection(
                    path: path, readOnly: false, vfs: vfsName, configuration: configuration, privateIndex: privateWALIndex)
            }
        } catch {
            throw .sqlite(error)
        }
        self.vfsName = vfsName
        walIndexIsPrivate = privateWALIndex
        fileIdentity = SQLiteDatabaseFiles.identity(of: path)
        if readOnly {
            let applied = try Migrator(StoreSchema.migrations).applied(in: connection, create: false)
            let known = Set(StoreSchema.migrations.map(\.name))
            let unknown = applied.filter { !known.contains($0) }
            if !unknown.isEmpty { throw .newerSchema(path: path, unknownMigrations: unknown) }
        } else {
            let migrator = Migrator(StoreSchema.migrations)
            let appliedBefore = try migrator.applied(in: connection)
            do {
                try migrator.migrate(connection)
            } catch let error where error.isDiskFull {
                // A schema upgrade needs room for its pages: nothing to hold in memory, refuse clearly.
                let pending = StoreSchema.migrations.count - appliedBefore.count
                throw .invalid("the disk holding \(path) is full and the store needs \(pending) schema upgrade step(s) first; "
                    + "free some space and start again (nothing was changed)")
            }
            restoreDiskReserve()
            // An older store's bills were split by older rules (before bills had a baseline, before the first
            // bill charged the drivers' estimates): split the unsettled ones by today's rules once.
            // A failure (a full disk) must not keep the service from starting: the next correction re-splits.
            if !appliedBefore.isEmpty && appliedBefore.contains(StoreSchema.familyBook.name)
                && !appliedBefore.contains(StoreSchema.firstFillBill.name)
            {
                // Bills only: the calibration is unchanged by the first-fill rule.
                do { try recomputeSplits() } catch { log(.warning, "re-splitting the bills after the upgrade failed: \(error)") }
            }
            if !appliedBefore.isEmpty && !appliedBefore.contains(StoreSchema.familyBook.name) {
                do { try rebook(force: true) {} } catch { log(.warning, "re-splitting the bills after the upgrade failed: \(error)") }
            }
        }
    }

    /// Caps SQLite's page cache of this connection at `kib` KiB (at least 64); pages beyond it are
    /// dropped least recently used first and read again from the file (or the kernel's cache).
    public func limitPageCache(kib: Int) throws(StoreError) {
        do { try Self.limitPageCache(connection, kib: kib) } catch { throw .sqlite(error) }
    }

    /// The page cache's cap in KiB as SQLite holds it (`PRAGMA cache_size`, converted from pages when positive).
    public func pageCacheLimitKiB() throws(StoreError) -> Int {
        try wrap { () throws(SQLiteError) -> Int in
            let size = try connection.pragmaInt("cache_size")
            guard size > 0 else { return Int(-size) }
            return Int(size * max(512, try connection.pragmaInt("page_size")) / 1024)
        }
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
    /// where SQLite cannot make the WAL index (the service stopped cleanly, so there is none), as
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

    /// Closes the connection and opens the file at `path` again, with the shared WAL index:
    /// after a start on a full disk once there is room, and after a deleted file was put back.
    /// `between` runs with no connection open (the old one's last checkpoint done). When the
    /// file cannot be opened again, the store goes on with a connection as it was opened at first.
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

    /// Once the read-only file system the service's store waits on is writable again, opens the
    /// store for writing (migrating it if this build needs to) and takes its reserve. False while
    /// the file system is still read-only; throws when it cannot be opened yet (tried again later).
    public func reopenWritable() throws(StoreError) -> Bool {
        guard waitsForWritableFileSystem else { return true }
        guard !SQLiteDatabaseFiles(path: path).isOnReadOnlyFileSystem else { return false }
        let writer: SQLiteConnection
        do {
            writer = try Self.openConnection(path: path, readOnly: false, vfs: vfsName, configuration: configuration, privateIndex: false)
        } catch {
            throw .sqlite(error)
        }
        // The reader stays until the writer is ready: a failure leaves the store as it was.
        try Migrator(StoreSchema.migrations).migrate(writer)
        connection = writer
        waitsForWritableFileSystem = false
        fileIdentity = SQLiteDatabaseFiles.identity(of: path)
        restoreDiskReserve()
        return true
    }

    private static func limitPageCache(_ connection: SQLiteConnection, kib: Int) throws(SQLiteError) {
        // A negative cache_size is a budget in KiB, whatever the page size.
        try connection.execute("PRAGMA cache_size = -\(max(64, kib))")
    }

    /// Runs `body` in one transaction; with `durable`, the commit is synced to disk before returning
    /// (every commit is, under `.syncEveryCommit`).
    ///
    /// A full disk is met by `relieveDiskPressure()` and one retry (on the first refusal of a run
    /// of them, then every 60th, or while a write that may spend the reserve still has it, so that a long episode neither floods the log nor thins the
    /// whole history); otherwise the error is `.diskFull`, the transaction is rolled back and
    /// the store stays usable.
    ///
    /// `spendingReserve` (default: `durable`): the write is a record that matters and may give up
    /// the disk reserve; trip points and counts of lost points never do, they only thin old tracks.
    @discardableResult
    public func write<T>(durable: Bool = false, spendingReserve: Bool? = nil, _ body: () throws -> T) throws(StoreError) -> T {
        guard !waitsForWritableFileSystem else { throw .readOnlyFileSystem(path: path) }
        // Inside another write (a whole bundle import, a fleet command with its id): that one
        // commits, or rolls everything back.
        if connection.isInTransaction {
            do { return try body() } catch let error as StoreError { throw error } catch { throw StoreError(error) }
        }
        do {
            let result = try writeOnce(durable: durable, body)
            diskFullStreak = 0
            refusedForReadOnlyFileSystem = false
            return result
        } catch let error where !error.isDiskFull && (isOnReadOnlyFileSystem || SQLiteDatabaseFiles(path: path).refusesNewFilesAsReadOnly) {
            // Remounted read-only under the service (an SD card after errors): say so, whatever SQLite's code.
            refusedForReadOnlyFileSystem = true
            throw .readOnlyFileSystem(path: path)
        } catch let error where error.isDiskFull {
            diskFullStreak += 1
            let mayRelease = spendingReserve ?? durable
            let reserveHeld = mayRelease && SQLiteDatabaseFiles.size(of: SQLiteDatabaseFiles(path: path).reservePath) != nil
            guard diskFullStreak % 60 == 1 || reserveHeld else { throw .diskFull(path: path, operation: "write") }
            log(.warning, "the disk holding \(path) is full (\(diskFullStreak) write(s) refused); making room and retrying")
            relieveDiskPressure(releasingReserve: mayRelease)
            do {
                let result = try writeOnce(durable: durable, body)
                diskFullStreak = 0
                return result
            } catch let retried where retried.isDiskFull {
                log(.error, "the disk holding \(path) is still full; the caller keeps its data and retries")
                throw .diskFull(path: path, operation: "write")
            }
        }
    }

    func writeOnce<T>(durable: Bool, _ body: () throws -> T) throws(StoreError) -> T {
        let toggle = durable && configuration.durability != .syncEveryCommit
        do {
            if toggle { try connection.execute("PRAGMA synchronous = FULL") }
            defer { if toggle { try? connection.execute("PRAGMA synchronous = NORMAL") } }
            return try connection.transaction("IMMEDIATE", body)
        } catch {
            throw StoreError(error)
        }
    }

    func wrap<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .sqlite(error) }
    }

    func log(_ level: StoreLogLevel, _ message: String) {
        configuration.log?(level, message)
    }

    /// Bytes written and syncs since the store opened, when it goes through a counting VFS.
    public var ioCounters: StoreIOCounters? {
        countingVFS.map { StoreIOCounters($0.counters) }
    }
}

extension StoreError {
    /// The disk or the file system is full (SQLite's `SQLITE_FULL`).
    public var isDiskFull: Bool {
        switch self {
        case let .sqlite(error): error.isDiskFull
        case .diskFull: true
        default: false
        }
    }

    /// The store cannot be written for now, through no fault of the file (a full disk or a
    /// read-only file system): what waits for it should be held, not given up.
    public var isStoreUnwritable: Bool {
        if isDiskFull { return true }
        if case .readOnlyFileSystem = self { return true }
        return false
    }
}
