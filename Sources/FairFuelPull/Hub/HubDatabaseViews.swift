import FairFuelEdges
import FairFuelStore

/// The family's views over a hub's database: each argument that names a hub's database (a hub's
/// `--db`: a SQLite file, a hub directory's own `hub.db`, or whatever `open` knows, a `postgres://`
/// URL in the CLI) is read from its rows in memory, once, as the cars of a hub directory are read
/// from their files. The CLI's `family`, `split`, `summary`, `report` and the web app's hub view all
/// read through it.
public enum HubDatabaseViews {
    /// Opens the hub database an argument names; nil when the argument is not one (a directory).
    public typealias Opener = (String) throws(StoreError) -> (any HubRecordStoring)?

    /// The cars `arguments` hold, in their order (a hub database's cars by vehicle id, a hub
    /// directory's, or the pull directory itself), and the commands the hubs among them list (their
    /// databases' and their directories'), for what they still wait for.
    public static func carStates(
        _ arguments: [String], open: Opener = HubDatabaseViews.openSQLite
    ) throws(PullClientError) -> (states: [PulledCarState], commands: [HubCommandEntry]) {
        var states: [PulledCarState] = []
        var commands: [HubCommandEntry] = []
        for argument in arguments {
            let database: (any HubRecordStoring)?
            do { database = try open(argument) } catch { throw .file("\(argument): \(error)") }
            if let database {
                states += try HubCollector.carStates(database)
                do { commands += try database.commands(vehicle: nil) } catch { throw .file("\(argument): \(error)") }
            } else {
                for directory in try FamilyBooks.carDirectories([argument]) { states.append(try PulledCarState.read(directory: directory)) }
                if try HubCollector.carDirectories(in: argument) != nil { commands += try HubCommandLog.read(directory: argument) }
            }
        }
        return (states, commands)
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
}

extension FamilyBooks {
    /// The cars `arguments` hold (pull directories, hub directories, hub databases), read once.
    /// `open`: which hub databases can be read (`HubDatabaseViews.openSQLite` by default).
    public static func load(
        pullsOrHubs arguments: [String], open: HubDatabaseViews.Opener = HubDatabaseViews.openSQLite
    ) throws(PullClientError) -> FamilyBooks {
        let (states, commands) = try HubDatabaseViews.carStates(arguments, open: open)
        var books = try load(states: states)
        books.noteWaiting(commands: commands)
        return books
    }
}
