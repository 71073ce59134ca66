import FairFuelEdges

/// A hub directory's own database: by default `fairfuel hub --dir DIR` keeps its records (and
/// refusals, and commands) in `DIR/hub.db`, a SQLite file, rather than in car directories. The one
/// rule every reader applies: a hub's directory that has this file means the file.
public enum HubDirectoryDatabase {
    public static let fileName = "hub.db"

    /// Where the hub of `directory` keeps its database.
    public static func path(directory: String) -> String { directory + "/" + fileName }

    /// `path(directory:)`, making `directory` first when it is missing (a new hub's).
    public static func pathMakingDirectory(_ directory: String) throws(PullClientError) -> String {
        try PullFiles.makeDirectory(directory)
        return path(directory: directory)
    }

    /// The database of `argument` when it is a hub's directory that has one (the hub ran since it
    /// kept a database by default); nil for anything else, which is read as before.
    public static func existing(in argument: String) -> String? {
        guard (try? FileOperations.kind(of: argument)) == .directory,
              ((try? PullFiles.read(argument + "/" + HubCollector.markerName)) ?? nil) != nil
        else { return nil }
        let path = path(directory: argument)
        return HubDatabaseViews.isSQLiteFile(path) ? path : nil
    }

    /// `argument`, or the database it means when it is a hub's directory with one.
    public static func resolve(_ argument: String) -> String { existing(in: argument) ?? argument }
}
