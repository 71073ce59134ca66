import ArgumentParser
import FairFuelConfiguration
import FairFuelEdges
import FairFuelService
import FairFuelStore

/// `--db PATH` for every command that touches the store, with `--control PATH`: a command that
/// changes the store tells the running service, so every one takes both.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "The store file (default: $FAIRFUEL_DB, else the board profile's store path).")
    var path: String?
    @OptionGroup var control: ControlOptions

    /// `--db`, else `$FAIRFUEL_DB`, else the store of the board profile the service runs with, as the service finds it.
    var resolvedPath: String {
        get throws {
            if let path { return path }
            if let fromEnvironment = ProcessEnvironment.value("FAIRFUEL_DB"), !fromEnvironment.isEmpty { return fromEnvironment }
            return try board(for: "its store path").store.path
        }
    }

    /// Opens the store for writing, with a clear error on failure.
    ///
    /// Only the commands that set a car up or record its driving create a store (`creating`:
    /// `run`, `replay`, `provision driver add|import|pairing-secret --generate`, `vehicle set`);
    /// any other refuses a path with no store, so that a mistyped `--db` never takes a refuel
    /// away from the real books. A store this opens at a new path is removed again if the command
    /// then fails (`FreshStore`): a failing command creates nothing.
    func open(creating: Bool = false) throws -> TripStore {
        if !creating { try requireExisting() }
        let resolvedPath = try resolvedPath
        do {
            let isNew = !FileOperations.exists(resolvedPath)
            let store = try TripStore(path: resolvedPath)
            if isNew { FreshStore.created(resolvedPath) }
            store.uplink = try uplinkOfBoard()?.outbox
            return store
        } catch let error as UserFacingError {
            throw error
        } catch {
            throw UserFacingError(StoreFailure.message(error, path: resolvedPath, doing: "open the store"))
        }
    }

    /// The `[uplink]` of the board profile the service runs with (`$FAIRFUEL_BOARD`, else the
    /// installed one if readable): a refuel or correction typed here queues its uplink message
    /// in the same transaction, as the service's own records do.
    func uplinkOfBoard() throws -> BoardProfile.Uplink? {
        try board(for: "its [uplink]").uplink
    }

    /// The board profile the service runs with: `$FAIRFUEL_BOARD`, else the installed one if readable,
    /// else the built-in default; `purpose` says in an error what it was read for.
    func board(for purpose: String) throws -> BoardProfile {
        try ServiceBoard.load(for: purpose)
    }

    /// Refuses a path with no store, saying which commands create one (rather than SQLite's "unable to open").
    func requireExisting() throws {
        let resolvedPath = try resolvedPath
        guard FileOperations.exists(resolvedPath) else {
            throw UserFacingError(
                "no store at \(resolvedPath) yet: `fairfuel run` creates it, as do `replay`, "
                    + "`provision driver add`, `provision import`, `provision pairing-secret --generate` and `vehicle set` "
                    + "(give --db or $FAIRFUEL_DB for another path)")
        }
    }

    func openReadOnly() throws -> TripStore {
        // A reading command creates nothing.
        try requireExisting()
        let resolvedPath = try resolvedPath
        let store: TripStore
        do {
            store = try TripStore(path: resolvedPath, readOnly: true)
        } catch {
            throw UserFacingError("cannot open the store \(resolvedPath): \(error)")
        }
        if store.readsImmutableFile {
            // On standard error, so that --json output stays what it is.
            let note = "note: the file system holding \(resolvedPath) is read-only; reading the file as it is on disk"
                + (StoreFiles(path: resolvedPath).walHoldsFrames ? " (the latest commits, still in its WAL, are not shown)" : "")
            StandardErrorLog.write(Array((note + "\n").utf8))
        }
        return store
    }
}
