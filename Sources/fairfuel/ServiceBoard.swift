import FairFuelConfiguration
import FairFuelEdges
import FairFuelService

/// The board profile the service runs with, as every command finds it: `$FAIRFUEL_BOARD`, else
/// the installed one if readable, else the built-in default (what `fairfueld` reads without `--board`).
enum ServiceBoard {
    /// `$FAIRFUEL_BOARD` when set and not empty.
    static var environmentPath: String? {
        ProcessEnvironment.value("FAIRFUEL_BOARD").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The profile; `purpose` says in an error what it was read for.
    static func load(for purpose: String) throws -> BoardProfile {
        do {
            return try ServiceDaemon.loadBoard(path: environmentPath)
        } catch {
            throw UserFacingError("cannot read the board profile for \(purpose): \(error)")
        }
    }
}
