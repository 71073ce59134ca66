import FairFuelEdges

/// Makes SIGINT and SIGTERM call `handler` (which sets a flag the command's loop polls).
func catchStopSignals(_ handler: @convention(c) (Int32) -> Void) throws {
    do {
        try SignalHandler.install(handler, for: [.interrupt, .terminate])
    } catch {
        throw UserFacingError("\(error)")
    }
}
