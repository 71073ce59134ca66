import ArgumentParser
import FairFuelConfiguration
import FairFuelService

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the dongle service: the MCU link, sessions, trips and the store.",
        discussion: """
            Opens the MCU port from the board profile (normally /dev/fairfuel-mcu), or --port.
            SIGTERM or SIGINT: flush the store and exit. SIGHUP: reload the provisioning.
            """)

    @Option(help: "Board profile (TOML); default: $FAIRFUEL_BOARD, else /etc/fairfuel/fairfuel.toml if present, else the built-in Pi Zero 2 W.")
    var board: String?
    @Option(help: "The MCU's serial port (overrides the board profile).")
    var port: String?
    @Flag(help: "Log debug lines too.")
    var verbose = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        // The daemon's body is shared with `fairfueld` (ServiceDaemon, FairFuelService).
        let status: Int32
        do {
            status = try ServiceDaemon.run(ServiceDaemonOptions(
                // The profile and socket every other command finds, so that they reach this service.
                boardPath: board ?? ServiceBoard.environmentPath, port: port, controlSocketPath: store.control.explicitPath,
                storePath: store.path, verbose: verbose))
        } catch {
            throw UserFacingError("\(error)")
        }
        // 75: something was not kept (a full disk); the log said what.
        if status != 0 { throw ExitCode(status) }
    }
}
