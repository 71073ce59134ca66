import ArgumentParser
import FairFuelEdges
import FairFuelCore
import FairFuelService

#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the dongle service: the MCU link, sessions, trips and the store.",
        discussion: """
            Opens the MCU port from the board profile (normally /dev/fairfuel-mcu), or --port.
            SIGTERM or SIGINT: flush the store and exit. SIGHUP: reload the provisioning.
            """)

    @Option(help: "Board profile (TOML); default: /etc/fairfuel/board.toml if present, else the built-in Pi Zero 2 W.")
    var board: String?
    @Option(help: "The MCU's serial port (overrides the board profile).")
    var port: String?
    @Option(name: .customLong("control"), help: "Control socket path (overrides the board profile).")
    var controlSocket: String?
    @Flag(help: "Log debug lines too.")
    var verbose = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let profile = try loadBoard()
        // Signals are blocked before any thread starts, then read from a signalfd in the loop.
        let signals: SignalWatcher
        do {
            signals = try SignalWatcher()
        } catch {
            throw UserFacingError("\(error)")
        }
        SignalWatcher.ignoreBrokenPipe()
        let logger = StandardErrorLog.logger(minimumLevel: verbose ? .debug : .info)
        let storePath = store.path ?? environment("FAIRFUEL_DB") ?? profile.store.path
        // One service per store and port, decided before anything is touched.
        let lock: InstanceLock
        do {
            lock = try InstanceLock(storePath: storePath, portPath: port ?? profile.link.port)
        } catch {
            logger.error("cannot start: \(error)")
            throw UserFacingError("cannot start: \(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        let runtime: ServiceRuntime
        do {
            runtime = try ServiceRuntime(options: .init(
                board: profile, storePath: storePath,
                port: port, controlSocketPath: controlSocket, logger: logger,
                notifier: SystemdNotifier.fromProcessEnvironment()))
        } catch {
            logger.error("cannot start: \(error)")
            throw UserFacingError("cannot start: \(error)")
        }
        // Start-up is over: the code only it ran need not stay resident (see StartupCodePages).
        StartupCodePages.release()
        runtime.runLoop(extraDescriptors: [signals.fileDescriptor], onReadable: { _ in
            while let signal = try? signals.next() {
                logger.notice("\(signal) received")
                if signal == .hangup {
                    runtime.reloadProvisioning()
                } else {
                    runtime.requestStop()
                }
            }
        })
        // Something was not kept (a full disk): the log said what; the exit status says so too.
        if let lost = runtime.shutdownLosses, !lost.isEmpty { throw ExitCode(75) }
    }

    private func loadBoard() throws -> BoardProfile {
        let path = board ?? (access(BoardProfile.installedPath, R_OK) == 0 ? BoardProfile.installedPath : nil)
        guard let path else { return .piZero2W }
        do {
            return try BoardProfile.load(path: path)
        } catch {
            throw UserFacingError("\(error)")
        }
    }
}
