import ArgumentParser
import FairFuelConfiguration
import FairFuelEdges
import FairFuelReports
import FairFuelService

/// Where the running service's control socket is.
struct ControlOptions: ParsableArguments {
    @Option(name: .customLong("control"), help: "The service's control socket (default: the board profile's).")
    var socketPath: String?

    var resolvedPath: String {
        socketPath ?? ProcessEnvironment.value("FAIRFUEL_CONTROL").flatMap { $0.isEmpty ? nil : $0 } ?? BoardProfile.piZero2W.control.socketPath
    }

    /// Seconds `status` and `session end` wait for the service (it answers them at once when it runs).
    static let answerSeconds: Int32 = 5

    /// The service's answer, or a clear error when it is not running or does not answer.
    func ask(_ request: String) throws -> String {
        let answer = try exchange(request, seconds: Self.answerSeconds)
        if answer.hasPrefix("error:") { throw UserFacingError(String(answer.dropFirst(7)).trimmingTrailingNewline) }
        return answer
    }

    /// The answer to `request` within `seconds`; errors say whether nothing listens or nothing answered.
    func exchange(_ request: String, seconds: Int32, notRunning: String? = nil) throws -> String {
        switch ControlSocketClient.exchange(path: resolvedPath, request: request, timeoutMs: seconds * 1_000) {
        case let .answered(answer) where !answer.isEmpty:
            return answer
        case .answered:
            throw UserFacingError("the fairfuel service at \(resolvedPath) closed the connection without answering; see its log (`journalctl -u fairfuel`) and try again")
        case .noService:
            throw UserFacingError(notRunning ?? "the fairfuel service is not running (no control socket at \(resolvedPath))")
        case let .notASocket(found):
            throw UserFacingError("\(resolvedPath) is \(found), not the fairfuel service's control socket; give the socket's path with --control")
        case .noAnswer:
            // A socket that accepts and never answers: the process is there but not running its loop.
            throw UserFacingError("the fairfuel service at \(resolvedPath) did not answer within \(seconds) s: it may be stopped "
                + "(SIGSTOP, a debugger) or overloaded; check it with `systemctl status fairfuel` and its log "
                + "(`journalctl -u fairfuel`), then try again or restart it with `systemctl restart fairfuel`")
        }
    }
}

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the running service: link, firmware, frame counters, GNSS, beacons, session, store size.")

    @Flag(help: "Print the service's JSON as is (everything the text shows).")
    var json = false
    @OptionGroup var control: ControlOptions

    func run() throws {
        let answer = try control.ask("status").trimmingTrailingNewline
        // The text is read from the JSON, so the two never disagree; anything unreadable is shown as it came.
        print(json ? answer : StatusText.text(answer).map(\.trimmingTrailingNewline) ?? answer)
        // The JSON stays on standard output as it was; a person also gets what a full disk cost.
        if !json, let warning = Self.storeWarning(answer) { StandardErrorLog.write(Array("warning: \(warning)\n".utf8)) }
    }

    /// "the store is refusing writes ..." / "the store could not keep: session_end 2, ..."; nil when all is well.
    static func storeWarning(_ answer: String) -> String? {
        var parts: [String] = []
        if answer.contains("\"store_refusing_writes\":true") {
            parts.append("the store is refusing writes (disk full?); records wait in memory")
        }
        if let start = answer.firstRange(of: "\"store_lost\":{"), let end = answer[start.upperBound...].firstIndex(of: "}") {
            let lost = answer[start.upperBound..<end].split(separator: ",").compactMap { pair -> String? in
                let fields = pair.split(separator: ":")
                guard fields.count == 2, let count = Int(fields[1]), count > 0 else { return nil }
                return "\(fields[0].filter { $0 != "\"" }) \(count)"
            }
            if !lost.isEmpty { parts.append("the store could not keep: " + lost.joined(separator: ", ")) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Act on the running service's session.", subcommands: [End.self])

    struct End: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the open session now (reason manual).")
        @OptionGroup var control: ControlOptions
        func run() throws {
            print(try control.ask("session end").trimmingTrailingNewline)
        }
    }
}

extension String {
    var trimmingTrailingNewline: String {
        var text = Substring(self)
        while text.last == "\n" { text.removeLast() }
        return String(text)
    }
}
