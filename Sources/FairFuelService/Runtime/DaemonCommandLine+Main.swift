import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges

/// `fairfueld`'s `main`: its few options parsed by hand (the daemon carries no argument-parsing
/// library), then `ServiceDaemon.run`, the same code as `fairfuel run`. Here rather than in the
/// executable so that libc stays in the runtime shell.
extension DaemonCommandLine {
    static let usage = """
        Usage: fairfueld [--board FILE] [--port PATH] [--control PATH] [--db PATH] [--verbose]

        The FairFuel dongle service: the MCU link, driving sessions, trips, the store and the
        control socket, in one poll loop. SIGTERM or SIGINT: flush the store and exit.
        SIGHUP: reload the provisioning.

        Options:
          --board FILE     board profile (TOML); default: \(BoardProfile.installedPath) if
                           readable, else the built-in Raspberry Pi Zero 2 W profile
          --port PATH      the MCU's serial port (overrides the board profile)
          --control PATH   the control socket (overrides the board profile)
          --db PATH        the store file (default: $FAIRFUEL_DB, else the board profile's)
          --verbose        log debug lines too
          --help           show this help and exit
          --version        show the version and exit

        Exit status: 0 after a clean stop, 1 when the service cannot start, 64 on bad options.
        """

    /// Parses `arguments` (without the program's name), runs the daemon, exits with its status.
    public static func main(_ arguments: [String]) -> Never {
        switch parse(arguments) {
        case .help:
            print(usage)
            ProcessExit.now(0)
        case .version:
            print("fairfueld \(FairFuelVersion.string)")
            ProcessExit.now(0)
        case .failure(let message):
            fail("\(message) (see fairfueld --help)", status: usageExitStatus)
        case .run(let options):
            do {
                ProcessExit.now(try ServiceDaemon.run(options))
            } catch {
                fail("\(error)", status: 1)
            }
        }
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        StandardErrorLog.write(Array("fairfueld: \(message)\n".utf8))
        ProcessExit.now(status)
    }
}
