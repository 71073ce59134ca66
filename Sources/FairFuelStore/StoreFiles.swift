import FairFuelSQLite

/// The files a store is on disk (the database, its WAL, shared memory and disk reserve), for the
/// commands around the store that measure or remove them: they go through the store, never to the
/// SQLite wrapper.
public struct StoreFiles: Sendable, Equatable {
    private let files: SQLiteDatabaseFiles

    public init(path: String) { files = SQLiteDatabaseFiles(path: path) }

    public var path: String { files.path }
    public var walPath: String { files.walPath }
    public var sharedMemoryPath: String { files.sharedMemoryPath }
    public var reservePath: String { files.reservePath }
    /// The database, its WAL and its reserve together.
    public var bytesOnDisk: Int64 { files.bytesOnDisk }
    /// Whether commits sit in the WAL, not yet in the database file.
    public var walHoldsFrames: Bool { files.walHoldsFrames }
    public var databaseBytes: Int64? { SQLiteDatabaseFiles.size(of: files.path) }
    public var walBytes: Int64? { SQLiteDatabaseFiles.size(of: files.walPath) }

    /// The SQLite library the store runs on, e.g. `3.40.1`.
    public static var libraryVersion: String { SQLiteLibrary.version }
}

extension TripStore {
    /// Copies every commit from the WAL into the database and empties the WAL: after a prune's
    /// vacuum, whose pages sit in the WAL until then, so that what is measured is what is kept.
    public func checkpointEmptyingTheWAL() throws(StoreError) {
        do { _ = try connection.checkpoint(.truncate) } catch { throw .sqlite(error) }
    }
}
