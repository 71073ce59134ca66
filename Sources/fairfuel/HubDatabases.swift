import FairFuelEdges
import FairFuelHubPostgres
import FairFuelPull
import FairFuelStore

/// The hub databases the CLI opens: a PostgreSQL server for a `postgres://` URL (its password in
/// the URL or `PGPASSWORD`), else a SQLite file.
enum HubDatabases {
    /// For `hub --db`, which writes: a SQLite file is made when missing.
    static func open(_ argument: String) throws(StoreError) -> any HubRecordStoring {
        guard HubPostgresURL.isPostgresURL(argument) else { return try HubRecordStore(path: argument) }
        return try HubPostgresStore(url: argument, password: ProcessEnvironment.value("PGPASSWORD"))
    }

    /// For the views (`family`, `split`, `summary`, `report`): an existing hub database, or nil
    /// when the argument is something else (a pull or hub directory).
    static func openForViews(_ argument: String) throws(StoreError) -> (any HubRecordStoring)? {
        if HubPostgresURL.isPostgresURL(argument) { return try open(argument) }
        return try HubDatabaseViews.openSQLite(argument)
    }
}
