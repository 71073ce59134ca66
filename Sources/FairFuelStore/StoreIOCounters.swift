import FairFuelSQLite

/// Bytes written and fsyncs, as counted by the store's VFS.
public struct StoreIOCounters: Sendable, Equatable {
    public var databaseBytesWritten: UInt64
    public var walBytesWritten: UInt64
    public var otherBytesWritten: UInt64
    public var databaseSyncs: UInt64
    public var walSyncs: UInt64
    public var otherSyncs: UInt64

    init(_ counters: SQLiteIOCounters) {
        databaseBytesWritten = counters.database.bytesWritten
        walBytesWritten = counters.wal.bytesWritten
        otherBytesWritten = counters.journal.bytesWritten + counters.other.bytesWritten
        databaseSyncs = counters.database.syncs
        walSyncs = counters.wal.syncs
        otherSyncs = counters.journal.syncs + counters.other.syncs
    }

    /// Every byte written.
    public var bytesWritten: UInt64 { databaseBytesWritten + walBytesWritten + otherBytesWritten }
    /// Every fsync (or fdatasync).
    public var syncs: UInt64 { databaseSyncs + walSyncs + otherSyncs }

    /// The counts between `earlier` and `self`.
    public func since(_ earlier: StoreIOCounters) -> StoreIOCounters {
        var result = self
        result.databaseBytesWritten &-= earlier.databaseBytesWritten
        result.walBytesWritten &-= earlier.walBytesWritten
        result.otherBytesWritten &-= earlier.otherBytesWritten
        result.databaseSyncs &-= earlier.databaseSyncs
        result.walSyncs &-= earlier.walSyncs
        result.otherSyncs &-= earlier.otherSyncs
        return result
    }
}
