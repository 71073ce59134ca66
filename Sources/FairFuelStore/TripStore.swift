import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite

/// The store's operations over one `StoreDatabase`: provisioning, sessions, trip points,
/// untracked driving, refuels and splits, the outbox, and the file kept within its retention policy.
///
/// One `TripStore` is the writer; readers open their own with `readOnly` (WAL lets
/// them read committed data while the writer works, and never blocks it).
public final class TripStore {
    /// The façade that opened and migrated the file and holds its connection.
    public let database: StoreDatabase
    public var path: String { database.path }
    public var configuration: StoreConfiguration { database.configuration }
    /// The writer's (or reader's) connection; replaced by `reopen()` and when a deleted file is put back.
    public var connection: SQLiteConnection { database.connection }
    /// The WAL index lives in this process's memory (the store was opened on a full disk): other
    /// processes cannot read the store until `reopen()` is done with room on the disk.
    public var walIndexIsPrivate: Bool { database.walIndexIsPrivate }
    /// The file the connection opened at `path` (`checkFileInPlace(wallClockUTCMs:lockingCopy:)`).
    var fileIdentity: FileIdentity? {
        get { database.fileIdentity }
        set { database.fileIdentity = newValue }
    }
    /// A reader opened the file as immutable (its file system is read-only and SQLite could not
    /// use the WAL index): what a WAL beside it holds is not seen.
    public var readsImmutableFile: Bool { database.readsImmutableFile }
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
    /// The event log's cap, track thinning and the vacuum (`TripStore+Retention.swift` forwards).
    let retention: RetentionRepository
    /// The uplink's queue of messages (`TripStore+Outbox.swift` forwards).
    let outbox: OutboxRepository
    /// Drivers, tags and beacons (`TripStore+Provisioning.swift` forwards).
    let provisioning: ProvisioningRepository
    /// The family book's queries: the fuel log, the shares, the fuel traces (`TripStore+Refuels.swift` forwards).
    let book: BookRepository
    /// Runs, sessions and their tracks (`TripStore+Sessions.swift` forwards).
    let sessionsRepository: SessionRepository
    /// When set, every finished trip, refuel, split and correction queues its uplink message in
    /// the record's own transaction (TripStore+Uplink.swift); nil: no uplink, nothing queued.
    public var uplink: OutboxUplink?

    /// Opens (creating and migrating as needed) the store at `path` through a `StoreDatabase`
    /// (see there for `readOnly` and `privateWALIndex`), then brings an older file's bills up to today's rules.
    public convenience init(
        path: String, readOnly: Bool = false, configuration: StoreConfiguration = StoreConfiguration(), privateWALIndex: Bool = false
    ) throws(StoreError) {
        try self.init(database: StoreDatabase(path: path, readOnly: readOnly, configuration: configuration, privateWALIndex: privateWALIndex))
    }

    /// The store over a database already opened (and, for a writer, migrated).
    public init(database: StoreDatabase) throws(StoreError) {
        self.database = database
        retention = RetentionRepository(database: database)
        outbox = OutboxRepository(database: database)
        provisioning = ProvisioningRepository(database: database)
        book = BookRepository(database: database)
        sessionsRepository = SessionRepository(database: database)
        chunkBuffer.reserveCapacity(2 * TrackChunkCodec.maximumBlobBytes)
        guard !database.readOnly else { return }
        restoreDiskReserve()
        let appliedBefore = database.migrationsAppliedBefore
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

    /// Caps SQLite's page cache of this connection at `kib` KiB (at least 64); pages beyond it are
    /// dropped least recently used first and read again from the file (or the kernel's cache).
    public func limitPageCache(kib: Int) throws(StoreError) {
        do { try database.limitPageCache(kib: kib) } catch { throw .sqlite(error) }
    }

    /// The page cache's cap in KiB as SQLite holds it (`PRAGMA cache_size`, converted from pages when positive).
    public func pageCacheLimitKiB() throws(StoreError) -> Int {
        try wrap { () throws(SQLiteError) -> Int in
            let size = try connection.pragmaInt("cache_size")
            guard size > 0 else { return Int(-size) }
            return Int(size * max(512, try connection.pragmaInt("page_size")) / 1024)
        }
    }

    /// Closes the connection and opens the file at `path` again, with the shared WAL index:
    /// after a start on a full disk once there is room, and after a deleted file was put back.
    public func reopen(between: () -> Void = {}) throws(StoreError) {
        try database.reopen(between: between)
    }

    /// Once the read-only file system the service's store waits on is writable again, opens the
    /// store for writing (migrating it if this build needs to) and takes its reserve. False while
    /// the file system is still read-only; throws when it cannot be opened yet (tried again later).
    public func reopenWritable() throws(StoreError) -> Bool {
        guard waitsForWritableFileSystem else { return true }
        guard !SQLiteDatabaseFiles(path: path).isOnReadOnlyFileSystem else { return false }
        // The reader stays until the writer is ready: a failure leaves the store as it was.
        try database.reopenWritable()
        waitsForWritableFileSystem = false
        restoreDiskReserve()
        return true
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
        try database.transaction(durable: durable, body)
    }

    func wrap<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .sqlite(error) }
    }

    func log(_ level: StoreLogLevel, _ message: String) {
        configuration.log?(level, message)
    }

    /// Bytes written and syncs since the store opened, when it goes through a counting VFS.
    public var ioCounters: StoreIOCounters? {
        database.countingVFS.map { StoreIOCounters($0.counters) }
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
