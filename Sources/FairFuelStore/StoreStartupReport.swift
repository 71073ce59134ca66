/// What start-up found and did.
public struct StoreStartupReport: Sendable, Equatable {
    /// There was no file: a new store was created.
    public var created = false
    /// Where a corrupt or unreadable store went (with its WAL), nil when it was sound.
    public var movedAsidePath: String?
    /// What the open or the integrity check said about that file.
    public var problems: [String] = []
    /// What was copied from the moved file into the new store; nil when nothing was moved.
    public var salvage: StoreSalvage?
    /// The disk was full when the store was opened (records wait in memory until there is room).
    public var diskFull = false
    /// With no room for `-shm`, the WAL index is in the service's memory until `TripStore.reopen()`.
    public var walIndexInMemory = false
    /// The file system holding the store is read-only: the store was opened for reading and
    /// writes wait until `TripStore.reopenWritable()` succeeds.
    public var readOnlyFileSystem = false

    public init() {}
}
