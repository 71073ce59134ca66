import FairFuelReports
import FairFuelStore

/// What a person at the command line is told when the store refuses a write (`StoreFailureText`,
/// which the web app shares); the CLI's own errors as they are.
enum StoreFailure {
    /// The message for `error`, met while `doing` (e.g. "record the refuel") in the store at `path`.
    /// `units`: the family's, for a change held back until confirmed (worded with `--force`).
    static func message(_ error: any Error, path: String, doing: String, units: DisplayUnits? = nil) -> String {
        if let error = error as? UserFacingError { return error.description }
        if case let StoreError.needsConfirmation(confirmation) = error {
            let goAhead = "add --force"
            return units.map { StoreConfirmationText.message(confirmation, units: $0, goAhead: goAhead) } ?? confirmation.text(goAhead: goAhead)
        }
        return StoreFailureText.message(error, path: path, doing: doing)
    }
}
