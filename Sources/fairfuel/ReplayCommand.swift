import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelService
import FairFuelSimulation
import FairFuelStore

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a capture through the live path into the store, as fast as possible.",
        discussion: """
            Deterministic: time comes from the capture. Several captures are replayed in order, each \
            as one run of the service (as if it restarted between them), appending to the store; a \
            trip cut by a restart goes on by the continuity rules. \
            The capture is streamed with constant memory; `-` reads it from standard input \
            (`fairfuel synth-capture --soak | fairfuel replay - --progress-every-hours 1`). With \
            --progress-every-hours, a `progress` line goes out each time the capture time passes \
            a multiple of the interval, and once at the end: capture hours, this process's CPU \
            seconds (user + system) and resident memory (VmRSS), frames, sessions and trip points so far.
            """)

    @Argument(help: "The capture files (.ffcap), in order, or - for standard input.")
    var captures: [String]
    @OptionGroup var store: StoreOptions

    @Option(help: "Print a progress line every this many hours of capture time (0.25: every 15 minutes).")
    var progressEveryHours: Double?

    @Flag(help: "Replay a capture this store has replayed before (refused otherwise: its trips would be stored and billed twice).")
    var again = false

    func validate() throws {
        guard !captures.isEmpty else { throw ValidationError("name at least one capture file (or - for standard input)") }
        guard captures.filter({ $0 == CaptureReading.standardInput }).count <= 1 else {
            throw ValidationError("standard input (-) can be replayed once")
        }
        if let progressEveryHours {
            guard progressEveryHours.isFinite, progressEveryHours >= 1.0 / 60, progressEveryHours <= 24 * 366 else {
                throw ValidationError("--progress-every-hours must be at least 1/60 (a minute) and at most 8784")
            }
        }
    }

    func run() throws {
        // Every file must be there before the store changes: a typo in the third name
        // must not leave the first two replayed.
        for capture in captures where capture != CaptureReading.standardInput {
            do {
                _ = try FileOperations.kind(of: capture)
            } catch {
                throw UserFacingError("cannot read capture \(capture): \(error.reason)")
            }
        }
        let db = try store.open(creating: true)
        // Nor may the third be one the store has seen (or the first again): its trips would be billed twice.
        var fingerprints: [String?] = []
        for capture in captures {
            let reading = CaptureReading(path: capture)
            let fingerprint: String?
            do { fingerprint = try reading.fingerprint() } catch { throw UserFacingError("cannot read capture \(capture): \(error)") }
            if let fingerprint, !again {
                if let earlier = try db.replayRun(ofCapture: fingerprint) {
                    throw UserFacingError(ReplayError.alreadyReplayed(capture: reading.displayName, run: earlier.id, note: earlier.note).description)
                }
                if let twice = fingerprints.firstIndex(of: fingerprint) {
                    throw UserFacingError(
                        "\(capture) is the same capture as \(captures[twice]): replaying both would store and bill its trips twice; "
                            + "nothing was replayed (--again replays it all the same)")
                }
            }
            fingerprints.append(fingerprint)
        }
        if progressEveryHours != nil {
            print("progress lines: sim_h cpu_s rss_kib frames sessions_started sessions_ended points")
        }
        for (capture, fingerprint) in zip(captures, fingerprints) {
            try replay(capture, fingerprint: fingerprint, into: db)
        }
        store.control.tellService()
    }

    private func replay(_ capture: String, fingerprint: String?, into db: TripStore) throws {
        let report: ReplayReport
        var replay = Replay(capturePath: capture, store: db)
        replay.captureFingerprint = fingerprint
        replay.replayingAgain = true  // checked above, for every capture before the first
        if let progressEveryHours {
            replay.progress = ReplayProgress(everyMs: Int64((progressEveryHours * 3_600_000).rounded())) { snapshot in
                let usage = ProcessUsage.now()
                print("progress\(snapshot.isFinal ? "-end" : "") sim_h=\(Self.hours(snapshot.captureMs)) cpu_s=\(usage.cpuSecondsText) "
                    + "rss_kib=\(usage.residentKiB.map(String.init) ?? "?") frames=\(snapshot.frames) "
                    + "sessions_started=\(snapshot.sessionsStarted) sessions_ended=\(snapshot.sessionsEnded) points=\(snapshot.pointsWritten)")
                try? StandardStreams.flush()
            }
        }
        do {
            report = try replay.run()
        } catch {
            throw UserFacingError("\(error)")
        }
        let name = capture == CaptureReading.standardInput ? "standard input" : capture
        print("replayed \(name): \(report.link.frames) frames over \(report.lastTimeMs / 1000) s, "
            + "\(report.sessionsStarted) session(s) started, \(report.sessionsEnded) ended, \(report.pointsWritten) trip points"
            + (report.sessionsResumed > 0 ? ", \(report.sessionsResumed) resumed without a tap" : ""))
        if report.sessionsEndedAtStartup > 0 {
            print("ended \(report.sessionsEndedAtStartup) session(s) left open by an earlier run (power_loss)")
        }
        if report.badEpochs > 0 {
            print("GNSS: \(report.badEpochs) fix(es) whose receiver time jumped against the MCU's clock were left out (bad epochs)")
        }
        if let kilometersPerHour = report.speeds.fastestKilometersPerHour, let fastest = report.speeds.fastest {
            // The replay stands: the warning says what its trips are worth.
            StandardErrorLog.write(Array((
                "warning: \(name): \(report.speeds.implausibleCount) trip(s) at speeds no car reaches (the fastest "
                    + "\(JSONLine.formatFixed(fastest.distance.kilometers, decimals: 2)) km in \(JSONLine.formatFixed(Double(fastest.durationMs) / 1_000, decimals: 1)) s, "
                    + (kilometersPerHour.isFinite ? "\(Int(kilometersPerHour.rounded())) km/h" : "no time at all")
                    + "): the MCU's clock in the capture runs slower than the positions move (a capture stitched "
                    + "together or edited, or an MCU whose clock is broken), so these trips' times are not to be trusted\n").utf8))
        }
        if report.link.errorTotal > 0 {
            print("link errors: " + report.link.nonZeroSummary)
        }
    }

    /// Capture milliseconds as hours with three decimals.
    static func hours(_ ms: UInt64) -> String {
        let thousandths = (ms + 1_800) / 3_600
        let fraction = String(thousandths % 1_000)
        return "\(thousandths / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
