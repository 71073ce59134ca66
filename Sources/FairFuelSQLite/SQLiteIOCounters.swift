/// What went through a counting VFS towards the disk, per kind of file.
public struct SQLiteIOCounters: Sendable, Equatable {
    /// One kind of file: bytes handed to `write`, write calls and syncs (each an fsync or fdatasync).
    public struct PerFile: Sendable, Equatable {
        public var bytesWritten: UInt64 = 0
        public var writes: UInt64 = 0
        public var syncs: UInt64 = 0

        public init(bytesWritten: UInt64 = 0, writes: UInt64 = 0, syncs: UInt64 = 0) {
            self.bytesWritten = bytesWritten
            self.writes = writes
            self.syncs = syncs
        }
    }

    public var database = PerFile()
    public var wal = PerFile()
    public var journal = PerFile()
    public var other = PerFile()
    public var truncates: UInt64 = 0
    /// Writes refused with `SQLITE_FULL` while the VFS played a full disk.
    public var refusedWrites: UInt64 = 0

    public init() {}

    /// Bytes written to every file.
    public var bytesWritten: UInt64 { database.bytesWritten + wal.bytesWritten + journal.bytesWritten + other.bytesWritten }
    /// Syncs of every file.
    public var syncs: UInt64 { database.syncs + wal.syncs + journal.syncs + other.syncs }

    /// The counts between `earlier` and `self`.
    public func since(_ earlier: SQLiteIOCounters) -> SQLiteIOCounters {
        func minus(_ a: PerFile, _ b: PerFile) -> PerFile {
            PerFile(bytesWritten: a.bytesWritten &- b.bytesWritten, writes: a.writes &- b.writes, syncs: a.syncs &- b.syncs)
        }
        var result = SQLiteIOCounters()
        result.database = minus(database, earlier.database)
        result.wal = minus(wal, earlier.wal)
        result.journal = minus(journal, earlier.journal)
        result.other = minus(other, earlier.other)
        result.truncates = truncates &- earlier.truncates
        result.refusedWrites = refusedWrites &- earlier.refusedWrites
        return result
    }
}
