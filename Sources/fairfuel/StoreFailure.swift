import FairFuelStore

/// What a person at the command line is told when the store refuses a write (`StoreFailureText`,
/// which the web app shares); the CLI's own errors as they are.
enum StoreFailure {
    /// The message for `error`, met while `doing` (e.g. "record the refuel") in the store at `path`.
    static func message(_ error: any Error, path: String, doing: String) -> String {
        if let error = error as? UserFacingError { return error.description }
        return StoreFailureText.message(error, path: path, doing: doing)
    }
}
