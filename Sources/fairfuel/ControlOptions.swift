import ArgumentParser
import FairFuelConfiguration
import FairFuelEdges

/// Where the running service's control socket is, found as the service finds it: `--control`, else
/// `$FAIRFUEL_CONTROL`, else the `[control] socket_path` of the board profile the service runs with
/// (`ServiceBoard`: `$FAIRFUEL_BOARD`, else the installed one).
struct ControlOptions: ParsableArguments {
    @Option(
        name: .customLong("control"),
        help: "The service's control socket (default: $FAIRFUEL_CONTROL, else the board profile's: $FAIRFUEL_BOARD, else /etc/fairfuel/fairfuel.toml).")
    var socketPath: String?

    /// `--control`, else `$FAIRFUEL_CONTROL`: nil leaves the choice to the board profile.
    var explicitPath: String? {
        socketPath ?? ProcessEnvironment.value("FAIRFUEL_CONTROL").flatMap { $0.isEmpty ? nil : $0 }
    }

    var resolvedPath: String {
        get throws { try explicitPath ?? ServiceBoard.load(for: "its control socket").control.socketPath }
    }

    /// Seconds `status` and `session end` wait for the service (it answers them at once when it runs).
    static let answerSeconds: Int32 = 5
    /// Seconds a command that changed the store waits for the service to take the change.
    static let reloadSeconds: Int32 = 2

    /// The service's answer, or a clear error when it is not running or does not answer.
    func ask(_ request: String) throws -> String {
        let answer = try exchange(request, seconds: Self.answerSeconds)
        if answer.hasPrefix("error:") { throw UserFacingError(String(answer.dropFirst(7)).trimmingTrailingNewline) }
        return answer
    }

    /// The answer to `request` within `seconds`; errors say whether nothing listens or nothing answered.
    func exchange(_ request: String, seconds: Int32, notRunning: String? = nil) throws -> String {
        let path = try resolvedPath
        switch ControlSocketClient.exchange(path: path, request: request, timeoutMs: seconds * 1_000) {
        case let .answered(answer) where !answer.isEmpty:
            return answer
        case .answered:
            throw UserFacingError("the fairfuel service at \(path) closed the connection without answering; see its log (`journalctl -u fairfuel`) and try again")
        case .noService:
            throw UserFacingError(notRunning ?? "the fairfuel service is not running (no control socket at \(path))")
        case let .notASocket(found):
            throw UserFacingError(Self.notASocket(path, found: found))
        case .noAnswer:
            throw UserFacingError(Self.noAnswer(path, seconds: seconds)
                + "; check it with `systemctl status fairfuel` and its log (`journalctl -u fairfuel`), then try again or restart it with `systemctl restart fairfuel`")
        }
    }

    /// A path that is something else than a socket (a regular file, a FIFO, a folder): never opened, said at once.
    static func notASocket(_ path: String, found: String) -> String {
        "\(path) is \(found), not the fairfuel service's control socket; give the socket's path with --control"
    }

    /// A socket that accepts and never answers: the process is there but not running its loop.
    static func noAnswer(_ path: String, seconds: Int32) -> String {
        "the fairfuel service at \(path) did not answer within \(seconds) s: it may be stopped (SIGSTOP, a debugger) or overloaded"
    }

    /// Tells the running service that the store changed (it re-reads the provisioning, the vehicle,
    /// its calibration and the uplink's queue) and says whether it took the change. The change is
    /// stored either way, so nothing here fails the command. `json`: the command prints JSON, so the
    /// outcome goes to standard error, as every outcome but success always does.
    /// `quietly` (a long-running caller, the web app): only what went wrong is said, on standard error.
    func tellService(json: Bool = false, quietly: Bool = false) {
        let path: String
        do { path = try resolvedPath } catch {
            Self.warn("the change is stored, but the running service was not told: \(error)")
            return
        }
        switch ControlSocketClient.exchange(path: path, request: "reload", timeoutMs: Self.reloadSeconds * 1_000) {
        case let .answered(answer) where answer.hasPrefix("ok"):
            let text = "the running service at \(path) took the change"
            if quietly { return }
            if json { Self.warn(text, prefix: "") } else { print(text) }
        case let .answered(answer):
            let reason = answer.isEmpty ? "it closed the connection without answering" : answer.trimmingTrailingNewline
            Self.warn("the running service at \(path) did not take the change (\(reason)); " + Self.later)
        case .noService:
            // Not an error: on a laptop, or with the service stopped, nobody is there to tell.
            if quietly { return }
            Self.warn("no fairfuel service answers at \(path); the change is stored and the service takes it when it starts "
                + "(one running with another socket: --control PATH, or its profile in $FAIRFUEL_BOARD)", prefix: "note: ")
        case let .notASocket(found):
            Self.warn(Self.notASocket(path, found: found) + "; " + Self.later)
        case .noAnswer:
            Self.warn(Self.noAnswer(path, seconds: Self.reloadSeconds) + "; " + Self.later)
        }
    }

    /// What happens to a stored change the service did not take.
    private static let later = "the change is stored, and the service takes it when it reloads (`systemctl reload fairfuel`, SIGHUP) or restarts"

    private static func warn(_ text: String, prefix: String = "warning: ") {
        StandardErrorLog.write(Array((prefix + text + "\n").utf8))
    }

    /// A clear error before any prompt when no service answers (not running, or stopped).
    func requireService(for what: String) throws {
        _ = try exchange("status", seconds: 2, notRunning: try notRunning(what))
    }

    /// A request the service answers when it is done (up to `seconds` plus a margin).
    func askLong(_ request: String, seconds: Int, what: String) throws -> String {
        let answer = try exchange(request, seconds: Int32(seconds + 10), notRunning: try notRunning(what))
        if answer.hasPrefix("error:") { throw UserFacingError(String(answer.dropFirst(7)).trimmingTrailingNewline) }
        return answer
    }

    private func notRunning(_ what: String) throws -> String {
        "\(what) needs the running fairfuel service, which uses the dongle's MCU (no control socket at \(try resolvedPath)); start it with `systemctl start fairfuel` or `fairfuel run`"
    }
}
