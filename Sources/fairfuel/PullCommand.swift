import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelPull
import FairFuelService

struct PullCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Pull trips, tracks, splits and summaries from a dongle over USB.",
        discussion: """
            Writes trips.csv/json, splits.csv/json, summary.csv/json and tracks/trip-N.gpx into DIR.
            Resumable: after an unplug, run the same command again; it continues after the last
            complete trip and never writes one twice (state in DIR/.fairfuel-pull/).
            DIR holds one car: a dongle of another car (another vehicle id) is refused, changing nothing.
            The pairing secret is the one `fairfuel provision pairing-secret --generate` showed.
            """)

    @Option(help: "The dongle's USB serial port on this laptop.")
    var port: String = "/dev/ttyACM0"
    @Option(help: "Only trips that started on or after this date (YYYY-MM-DD or ISO 8601, UTC).")
    var since: String?
    @Option(help: "The directory to write into (created with its parent folders if missing, before the dongle is paired).")
    var out: String
    @Option(name: .customLong("secret-file"), help: "A file holding the pairing secret.")
    var secretFile: String?
    @Option(help: "The pairing secret (visible to other users in the process list: prefer --secret-file).")
    var secret: String?
    @Option(help: "Baud rate (a USB CDC port ignores it).")
    var baud: Int = 115_200
    @Option(name: .customLong("answer-timeout-ms"), help: .hidden)
    var answerTimeoutMs: Int64 = 2_000

    func validate() throws {
        guard (secret == nil) != (secretFile == nil) else { throw ValidationError("give exactly one of --secret and --secret-file") }
    }

    func run() throws {
        do { try HMACSHA256.load() } catch { throw UserFacingError("\(error)") }
        let pairing = try loadSecret()
        var sinceMs: Int64?
        if let since {
            do { sinceMs = try ISO8601.rangeBound(since, endOfDay: false) } catch { throw ValidationError("--since: \(error)") }
        }
        let interactive = StandardStreams.isTerminal(2)
        let created = try Self.prepareFolder(out)
        do {
            let client = try PullClient(portPath: port, baud: baud)
            client.answerTimeoutMs = answerTimeoutMs
            let download = PullDownload(directory: out, sinceUTCMs: sinceMs)
            var lastShown = -1
            let report = try download.run(client: client, secret: pairing) { progress in
                if interactive {
                    let width = 30
                    let total = max(progress.tripsTotal, 1)
                    let filled = min(width, progress.tripsDone * width / total)
                    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                    StandardErrorLog.write(Array("\r[\(bar)] \(progress.tripsDone)/\(progress.tripsTotal) trips".utf8))
                } else if progress.tripsDone != lastShown {
                    lastShown = progress.tripsDone
                    StandardErrorLog.write(Array("pulled \(progress.tripsDone)/\(progress.tripsTotal) trips\n".utf8))
                }
            }
            if interactive { StandardErrorLog.write(Array("\n".utf8)) }
            print("pulled \(report.tripsPulled) new trip(s); \(out) holds \(report.tripsInDirectory) trip(s)"
                + (report.tripsRemoved > 0 ? "; \(report.tripsRemoved) deleted on the dongle since, removed here" : "")
                + (report.tripsUpdated > 0 ? "; \(report.tripsUpdated) corrected on the dongle since, updated here" : "")
                + (report.noiseFrames > 0 ? "; \(report.noiseFrames) frame(s) lost to line noise and fetched again" : ""))
        } catch {
            if interactive { StandardErrorLog.write(Array("\n".utf8)) }
            // A refused pull leaves nothing behind; a folder with trips in it stays, to resume into.
            Self.removeIfEmpty(created)
            throw UserFacingError("pull: \(error)")
        }
    }

    /// Creates `out` and its missing parents and proves it writable, before the dongle is asked
    /// anything: a folder that cannot be written fails at once, not after pairing. Returns the
    /// directories it created, outermost first.
    static func prepareFolder(_ out: String) throws -> [String] {
        var created: [String] = []
        var path = out.hasPrefix("/") ? "" : "."
        do {
            for part in out.split(separator: "/") {
                path += "/" + part
                if FileOperations.exists(path) { continue }
                try FileOperations.makeDirectory(path)
                created.append(path)
            }
            guard try FileOperations.kind(of: out) == .directory else {
                throw UserFacingError("pull: \(out) is not a directory; give --out a folder (created if missing)")
            }
            // access(2) cannot tell a read-only mount from a permission root ignores: try it.
            try FileOperations.removeDirectory(try FileOperations.makeUniqueDirectory(prefix: out + "/.fairfuel-pull-probe-"))
        } catch let error as UserFacingError {
            removeIfEmpty(created)
            throw error
        } catch {
            removeIfEmpty(created)
            throw UserFacingError("pull: cannot write into \(out): \(error); nothing was pulled")
        }
        return created
    }

    /// Removes the directories `created` made, innermost first, as long as they are empty.
    static func removeIfEmpty(_ created: [String]) {
        for directory in created.reversed() {
            guard (try? FileOperations.removeDirectory(directory)) != nil else { return }
        }
    }

    func loadSecret() throws -> PairingSecret { try Self.loadSecret(secret: secret, secretFile: secretFile) }

    /// The pairing secret given as text or in a file (`pull`, and `hub command`, which signs with it).
    static func loadSecret(secret: String?, secretFile: String?) throws -> PairingSecret {
        if let secretFile {
            do { return try PairingSecret.load(file: secretFile) } catch { throw UserFacingError(error.description) }
        }
        guard let parsed = PairingSecret(parsing: secret ?? "") else {
            throw UserFacingError("a pairing secret is 32 hex digits (dashes allowed), as `fairfuel provision pairing-secret --generate` showed it")
        }
        return parsed
    }
}
