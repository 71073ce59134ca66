/// When commits reach the disk.
public enum StoreDurability: Sendable, Equatable {
    /// `synchronous=FULL`: every commit is fsynced before it returns; a power cut loses nothing committed.
    case syncEveryCommit
    /// `synchronous=NORMAL`: the WAL is fsynced only at checkpoints, so a power cut may lose the commits
    /// since the last one (never consistency); durable writes still sync. For bulk imports and tests.
    case syncAtCheckpoints
}

/// Which SQLite VFS the store's connection goes through.
public enum StoreVFS: Sendable, Equatable {
    /// SQLite's default (unix) VFS.
    case system
    /// A counting VFS of the store's own: `TripStore.ioCounters` reports bytes written and syncs.
    case counting
    /// A VFS already registered under this name (tests: a counting VFS playing power cuts or a full disk).
    case named(String)
}

/// How loud a store message is.
public enum StoreLogLevel: String, Sendable {
    case info
    case notice
    case warning
    case error
}

/// Everything a `TripStore` is opened with.
public struct StoreConfiguration: Sendable {
    public var retention: RetentionPolicy
    public var durability: StoreDurability
    public var vfs: StoreVFS
    /// How long a writer waits for a lock before giving up, in milliseconds.
    public var busyTimeoutMs: Int32
    /// Most memory SQLite's page cache may hold, in KiB; nil: SQLite's default (2000 KiB).
    ///
    /// The cache keeps the pages a connection touched and grows with the file up to this, so it
    /// is the store's share of resident memory; board profiles set it (`[store] page_cache_kib`).
    public var pageCacheKiB: Int?
    /// Where the store reports what it did on its own (recovery, disk full, pruning).
    public var log: (@Sendable (StoreLogLevel, String) -> Void)?

    public init(retention: RetentionPolicy = RetentionPolicy(), durability: StoreDurability = .syncEveryCommit, vfs: StoreVFS = .system,
                busyTimeoutMs: Int32 = 5_000, pageCacheKiB: Int? = nil, log: (@Sendable (StoreLogLevel, String) -> Void)? = nil) {
        self.retention = retention
        self.durability = durability
        self.vfs = vfs
        self.busyTimeoutMs = busyTimeoutMs
        self.pageCacheKiB = pageCacheKiB
        self.log = log
    }
}
