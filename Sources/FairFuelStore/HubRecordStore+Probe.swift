import FairFuelSQLite

extension HubRecordStore {
    /// Whether `path` is a hub's database (it has the hub's records table), read without writing:
    /// `init(path:)` migrates, and would make any other SQLite file a hub's.
    public static func isHubDatabase(path: String) -> Bool {
        guard let connection = try? SQLiteConnection(path: path, mode: .readOnly) else { return false }
        let tables = try? connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'hub_records'")
        return tables == 1
    }
}
