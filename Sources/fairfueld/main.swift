// fairfueld: the dongle's daemon, as systemd runs it (/usr/sbin/fairfueld). Its few options are
// parsed by hand so that the daemon carries no argument-parsing library; the service itself is
// ServiceDaemon, the same code as `fairfuel run`.
import FairFuelConfiguration
import FairFuelService

#if canImport(Glibc)
import Glibc
#endif

let usage = """
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

func fail(_ message: String, status: Int32) -> Never {
    let line = Array("fairfueld: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}

switch DaemonCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
    print(usage)
case .version:
    print("fairfueld \(FairFuelVersion.string)")
case .failure(let message):
    fail("\(message) (see fairfueld --help)", status: DaemonCommandLine.usageExitStatus)
case .run(let options):
    do {
        exit(try ServiceDaemon.run(options))
    } catch {
        fail("\(error)", status: 1)
    }
}
