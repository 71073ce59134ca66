import FairFuelEdges
import FairFuelHubPostgres
import FairFuelPull
import FairFuelStore

/// The family's views over a hub's database: each argument that is a SQLite file or a
/// `postgres://` URL (a hub's `--db`) is written out as a hub directory in a private temporary directory, which the views
/// read as they read any hub's; the rest are passed through. The copies go when the view is done.
struct HubDatabaseViews {
    /// The arguments, each hub database replaced by its copy.
    private(set) var directories: [String] = []
    private var temporary: [String] = []

    init(_ arguments: [String], command: String) throws {
        for argument in arguments {
            guard HubPostgresURL.isPostgresURL(argument) || Self.isSQLiteFile(argument) else {
                directories.append(argument)
                continue
            }
            do {
                let database = try Self.open(argument)
                let copy = try FileOperations.makeUniqueDirectory(prefix: "/tmp/fairfuel-hub-view-")
                temporary.append(copy)
                try HubCollector.materialize(database, into: copy)
                directories.append(copy)
            } catch {
                removeAll()
                throw UserFacingError("\(command): \(argument): \(error)")
            }
        }
    }

    /// The hub's database `argument` names: a PostgreSQL server for a `postgres://` URL (its password
    /// in the URL or `PGPASSWORD`), else a SQLite file, made when missing.
    static func open(_ argument: String) throws(StoreError) -> any HubRecordStoring {
        guard HubPostgresURL.isPostgresURL(argument) else { return try HubRecordStore(path: argument) }
        return try HubPostgresStore(url: argument, password: ProcessEnvironment.value("PGPASSWORD"))
    }

    /// Whether `path` is a regular file that starts as every SQLite database does.
    static func isSQLiteFile(_ path: String) -> Bool {
        guard (try? FileOperations.kind(of: path)) == .regularFile,
              case let .success(bytes) = TextFileReader.readAll(path: path, maximumBytes: 16)
        else { return false }
        return bytes.starts(with: Array("SQLite format 3\u{0}".utf8))
    }

    func removeAll() {
        for directory in temporary { Self.removeTree(directory) }
    }

    private static func removeTree(_ path: String) {
        if (try? FileOperations.kind(of: path)) == .directory {
            for entry in (try? FileOperations.directoryEntries(path)) ?? [] where entry != "." && entry != ".." {
                removeTree(path + "/" + entry)
            }
            _ = try? FileOperations.removeDirectory(path)
        } else {
            _ = FileOperations.remove(path)
        }
    }
}
