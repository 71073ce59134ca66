import FairFuelSQLite

/// A read-only connection kept open on a hub's database to tell whether anything was committed since
/// the last look (`PRAGMA data_version`, which moves only for other connections' commits: the hub
/// collecting). A reader at fleet size keeps what it read while the version stays the same.
public final class HubDataVersion {
    private let connection: SQLiteConnection

    public init(path: String) throws(StoreError) {
        do { connection = try SQLiteConnection(path: path, mode: .readOnly) } catch { throw .sqlite(error) }
    }

    /// The version now: equal to an earlier one when nothing was committed in between.
    public func current() throws(StoreError) -> Int64 {
        do { return try connection.pragmaInt("data_version") } catch { throw .sqlite(error) }
    }
}
