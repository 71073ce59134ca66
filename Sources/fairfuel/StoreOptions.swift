import ArgumentParser
import FairFuelService
import FairFuelStore

/// `--db PATH` for every command that touches the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "The store file (default: $FAIRFUEL_DB, else the board profile's store path).")
    var path: String?

    var resolvedPath: String {
        if let path { return path }
        if let fromEnvironment = environment("FAIRFUEL_DB"), !fromEnvironment.isEmpty { return fromEnvironment }
        return BoardProfile.piZero2W.store.path
    }

    /// Opens the store for writing, with a clear error on failure.
    func open() throws -> TripStore {
        do {
            return try TripStore(path: resolvedPath)
        } catch {
            throw UserFacingError("cannot open the store \(resolvedPath): \(error)")
        }
    }

    func openReadOnly() throws -> TripStore {
        do {
            return try TripStore(path: resolvedPath, readOnly: true)
        } catch {
            throw UserFacingError("cannot open the store \(resolvedPath): \(error)")
        }
    }
}
