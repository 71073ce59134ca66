import FairFuelEdges
import FairFuelStore

/// The family's views over a hub's database: each argument that is a SQLite file (a hub's
/// `--db`) is written out as a hub directory in a private temporary directory, which the views
/// read as they read any hub's; the rest are passed through. The copies go when the view is done.
/// The CLI's `family`, `split`, `summary`, `report` and the web app's hub view all read through it.
public struct HubDatabaseViews {
    /// The arguments, each hub database replaced by its copy.
    public private(set) var directories: [String] = []
    private var temporary: [String] = []

    public init(_ arguments: [String]) throws(PullClientError) {
        for argument in arguments {
            guard Self.isSQLiteFile(argument) else {
                directories.append(argument)
                continue
            }
            do {
                // Opening migrates: a car's store (or any other database) must not become a hub's.
                guard HubRecordStore.isHubDatabase(path: argument) else {
                    throw PullClientError.file("\(argument) is a SQLite database but not a hub's (`fairfuel hub --db FILE` writes one)")
                }
                let database = try HubRecordStore(path: argument)
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
    public static func load(pullsOrHubs arguments: [String]) throws(PullClientError) -> FamilyBooks {
        let databases = try HubDatabaseViews(arguments)
        defer { databases.removeAll() }
        return try load(directories: try carDirectories(databases.directories))
    }
}
