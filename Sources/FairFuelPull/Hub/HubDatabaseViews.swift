import FairFuelEdges
import FairFuelStore

/// The family's views over a hub's database: each argument that names a hub's database (a hub's
/// `--db`: a SQLite file, or whatever `open` knows, a `postgres://` URL in the CLI) is written out
/// as a hub directory in a private temporary directory, which the views read as they read any
/// hub's; the rest are passed through. The copies go when the view is done.
/// The CLI's `family`, `split`, `summary`, `report` and the web app's hub view all read through it.
public struct HubDatabaseViews {
    /// Opens the hub database an argument names; nil when the argument is not one (a directory).
    public typealias Opener = (String) throws(StoreError) -> (any HubRecordStoring)?

    /// The arguments, each hub database replaced by its copy.
    public private(set) var directories: [String] = []
    /// The commands the hubs among the arguments list (their databases' and their directories'),
    /// for what they still wait for.
    public private(set) var commands: [HubCommandEntry] = []
    private var temporary: [String] = []

    public init(_ arguments: [String], open: Opener = HubDatabaseViews.openSQLite) throws(PullClientError) {
        for argument in arguments {
            do {
                guard let database = try open(argument) else {
                    directories.append(argument)
                    if try HubCollector.carDirectories(in: argument) != nil { commands += try HubCommandLog.read(directory: argument) }
                    continue
                }
                commands += try database.commands(vehicle: nil)
                let copy = try FileOperations.makeUniqueDirectory(prefix: "/tmp/fairfuel-hub-view-")
                temporary.append(copy)
                try HubCollector.materialize(database, into: copy)
                directories.append(copy)
            } catch let error as PullClientError {
                removeAll()
                throw error
            } catch {
                removeAll()
                throw .file("\(argument): \(error)")
            }
        }
    }

    /// A hub's SQLite database (or a hub directory's own, `HubDirectoryDatabase`), nil for anything
    /// else. Opening migrates, so a car's store (or any other database) is refused before it could
    /// become a hub's.
    public static func openSQLite(_ given: String) throws(StoreError) -> (any HubRecordStoring)? {
        let argument = HubDirectoryDatabase.resolve(given)
        guard isSQLiteFile(argument) else { return nil }
        guard HubRecordStore.isHubDatabase(path: argument) else {
            throw .invalid("\(argument) is a SQLite database but not a hub's (`fairfuel hub --db FILE` writes one)")
        }
        return try HubRecordStore(path: argument)
    }

    /// Whether `path` is a regular file that starts as every SQLite database does.
    public static func isSQLiteFile(_ path: String) -> Bool {
        guard (try? FileOperations.kind(of: path)) == .regularFile,
              case let .success(bytes) = TextFileReader.readAll(path: path, maximumBytes: 16)
        else { return false }
        return bytes.starts(with: Array("SQLite format 3\u{0}".utf8))
    }

    public func removeAll() {
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

extension FamilyBooks {
    /// The cars `arguments` hold (pull directories, hub directories, hub databases), read once.
    /// `open`: which hub databases can be read (`HubDatabaseViews.openSQLite` by default).
    public static func load(
        pullsOrHubs arguments: [String], open: HubDatabaseViews.Opener = HubDatabaseViews.openSQLite
    ) throws(PullClientError) -> FamilyBooks {
        let databases = try HubDatabaseViews(arguments, open: open)
        defer { databases.removeAll() }
        var books = try load(directories: try carDirectories(databases.directories))
        books.noteWaiting(commands: databases.commands)
        return books
    }
}
