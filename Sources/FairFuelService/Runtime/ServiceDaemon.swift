import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges

/// What `fairfueld` and `fairfuel run` were asked for; nil means "the board profile's value".
public struct ServiceDaemonOptions: Sendable, Equatable {
    /// Board profile file; nil: `BoardProfile.installedPath` if readable, else the built-in Pi Zero 2 W.
    public var boardPath: String?
    public var port: String?
    public var controlSocketPath: String?
    /// Store file; nil: `$FAIRFUEL_DB`, else the board profile's store path.
    public var storePath: String?
    public var verbose: Bool

    public init(boardPath: String? = nil, port: String? = nil, controlSocketPath: String? = nil,
                storePath: String? = nil, verbose: Bool = false) {
        self.boardPath = boardPath
        self.port = port
        self.controlSocketPath = controlSocketPath
        self.storePath = storePath
        self.verbose = verbose
    }
}

/// Why the daemon could not start; the message is for the operator, as is.
public struct ServiceDaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The daemon's `main`, shared by `fairfueld` and `fairfuel run` so that both run the same code:
/// board profile, signals, logger, runtime, poll loop.
public enum ServiceDaemon {
    /// Runs the service until SIGTERM or SIGINT; returns the exit status (0 after a clean stop).
    public static func run(_ options: ServiceDaemonOptions) throws(ServiceDaemonError) -> Int32 {
        // Files are never world-readable, whatever started the process (systemd sets the same).
        FileCreationMask.set(0o027)
        let profile = try loadBoard(path: options.boardPath)
        // Signals are blocked before any thread starts, then read from a signalfd in the loop.
        let signals: SignalWatcher
        do {
            signals = try SignalWatcher()
        } catch {
            throw ServiceDaemonError("\(error)")
        }
        SignalWatcher.ignoreBrokenPipe()
        let logger = StandardErrorLog.logger(minimumLevel: options.verbose ? .debug : .info)
        let store = storePath(options.storePath, profile: profile)
        // One service per store, port and control socket, decided before anything is created.
        let lock: InstanceLock
        do {
            lock = try InstanceLock(
                storePath: store, portPath: options.port ?? profile.link.port,
                controlSocketPath: options.controlSocketPath ?? profile.control.socketPath)
        } catch {
            logger.error("cannot start: \(error)")
            throw ServiceDaemonError("cannot start: \(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        let runtime: ServiceRuntime
        do {
            runtime = try ServiceRuntime(options: .init(
                board: profile, storePath: store,
                port: options.port, controlSocketPath: options.controlSocketPath, logger: logger,
                notifier: SystemdNotifier.fromProcessEnvironment(),
                credentialsDirectory: ProcessEnvironment.value("CREDENTIALS_DIRECTORY"), instanceLock: lock))
        } catch {
            logger.error("cannot start: \(error)")
            throw ServiceDaemonError("cannot start: \(error)")
        }
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
        if let lost = runtime.shutdownLosses, !lost.isEmpty { return 75 }
        return 0
    }

    /// The profile at `path`, else the installed one if readable, else the built-in Pi Zero 2 W.
    public static func loadBoard(path: String?) throws(ServiceDaemonError) -> BoardProfile {
        let path = path ?? (FileOperations.isReadable(BoardProfile.installedPath) ? BoardProfile.installedPath : nil)
        guard let path else { return .piZero2W }
        do {
            return try BoardProfile.load(path: path)
        } catch {
            throw ServiceDaemonError("\(error)")
        }
    }

    /// `--db`, else a non-empty `$FAIRFUEL_DB`, else the profile's store path.
    static func storePath(_ explicit: String?, profile: BoardProfile) -> String {
        if let explicit { return explicit }
        if let value = ProcessEnvironment.value("FAIRFUEL_DB"), !value.isEmpty { return value }
        return profile.store.path
    }
}
