import ArgumentParser
import FairFuelConfiguration
import FairFuelService
import FairFuelSQLite
import FairFuelStore

#if canImport(Glibc)
import Glibc
#endif

/// `--db PATH` for every command that touches the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "The store file (default: $FAIRFUEL_DB, else the board profile's store path).")
    var path: String?

    var resolvedPath: String {
        if let path { return path }
        if let fromEnvironment = environment("FAIRFUEL_DB"), !fromEnvironment.isEmpty { return fromEnvironment }
        return BoardProfile.piZero2W.store.path
    }

    /// Opens the store for writing, with a clear error on failure. A store this opens at a new
    /// path is removed again if the command then fails (`FreshStore`): a failing command creates nothing.
    func open() throws -> TripStore {
        do {
            let isNew = access(resolvedPath, F_OK) != 0
            let store = try TripStore(path: resolvedPath)
            if isNew { FreshStore.created(resolvedPath) }
            return store
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
