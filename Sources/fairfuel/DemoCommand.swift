import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelService
import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelStore

/// `fairfuel demo`: the virtual MCU and the service on a pseudo-terminal, a family's trips and split.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the family scenario sped up through the real service and print the trips and the cost split.",
        discussion: """
            Starts the virtual MCU and the service in this process, on a pseudo-terminal, with a \
            throw-away store (removed at the end unless --keep DIR). The scenario's drivers are \
            provisioned first and its refuels entered at the end, as the family would with \
            `fairfuel refuel`. No hardware, no root.
            """)

    @Option(help: "The scenario (default: scenarios/family-week.scenario, from the repository's root).")
    var scenario: String?
    @Option(help: "Simulated seconds per real second while the car is in use.")
    var speed: Double = 2_000
    @Option(help: "Speed while nothing happens (parked, GNSS off, nothing scripted for 30 simulated seconds).")
    var idleSpeed: Double = 200_000
    @Option(help: "Keep the store (and the MCU link) in this directory instead of a temporary one.")
    var keep: String?
    @Flag(help: "Print the trips and the split only, no progress lines.")
    var quiet = false
    @Flag(help: "Log the service's notices (sessions, refused tags) as they happen.")
    var verbose = false

    static let defaultScenario = "scenarios/family-week.scenario"

    func validate() throws {
        guard speed > 0, speed.isFinite, speed <= 1_000_000 else { throw ValidationError("--speed must be above 0 and at most 1000000") }
        guard idleSpeed > 0, idleSpeed.isFinite, idleSpeed <= 10_000_000 else {
            throw ValidationError("--idle-speed must be above 0 and at most 10000000")
        }
    }

    func run() throws {
        let path = scenario ?? Self.defaultScenario
        guard FileOperations.isReadable(path) else {
            throw UserFacingError(scenario == nil
                ? "no \(path) here: run the demo from the repository's root, or pass --scenario FILE"
                : "cannot read the scenario \(path)")
        }
        let plan: SimPlan
        do {
            plan = try SimPlanner.plan(try SimScenarioParser.load(path: path))
        } catch {
            throw UserFacingError(error.description)
        }
        let directory: DemoDirectory
        do throws(DemoError) {
            if let keep {
                directory = try DemoDirectory.kept(keep)
            } else {
                directory = try DemoDirectory.temporary()
            }
        } catch {
            throw UserFacingError(error.description)
        }
        defer { directory.remove() }

        let demo = DemoRun(plan: plan, directory: directory.path, speed: speed, idleSpeed: idleSpeed)
        demo.logger = StandardErrorLog.logger(minimumLevel: verbose ? .notice : .warning)
        if !quiet {
            print("demo: '\(plan.scenario.title)', \(plan.trips.count) trips and \(plan.refuels.count) refuels planned, "
                + "at \(Int(speed))x (\(Int(idleSpeed))x while parked); store in \(directory.path)")
            try? StandardStreams.flush()
        }
        let report: DemoReport
        do {
            report = try demo.run { progress in
                guard !quiet else { return }
                let driving = progress.sessionsStarted - progress.sessionsEnded
                print("[\(progress.localTime)] \(progress.sessionsEnded) trip(s) so far" + (driving > 0 ? ", one under way" : ""))
                try? StandardStreams.flush()
            }
        } catch {
            throw UserFacingError("demo failed: \(error)")
        }
        if !quiet {
            print("done in \(JSONLine.formatFixed(Double(report.realMs) / 1000, decimals: 1)) s: "
                + "\(JSONLine.formatFixed(Double(report.simulatedMs) / 3_600_000, decimals: 1)) simulated hours, "
                + "\(report.framesSent) frames, \(report.sessionsEnded) trips, \(report.refuelsEntered) refuel(s) entered")
            print("link: \(report.link.frames) frames received, \(report.link.errorTotal) errors, \(report.link.lost) lost, "
                + "\(report.mcuReboots) MCU reboot(s) seen")
            print("")
            print("Trips (fairfuel trips):")
            try? StandardStreams.flush()
        }
        try TripsCommand.List.parse(["--db", report.storePath]).run()
        if !quiet {
            print("")
            print("Split of each refuel (fairfuel split):")
            try? StandardStreams.flush()
        }
        try SplitCommand.parse(["--db", report.storePath]).run()
        try correctAForgottenTap(plan: plan, storePath: report.storePath, controlPath: demo.controlSocketPath)
        if keep != nil && !quiet {
            print("")
            print("The store is kept: fairfuel trips --db \(report.storePath)")
        }
        try? StandardStreams.flush()
    }

    /// One correction as the family makes it: the untracked driving of a trip whose driver forgot
    /// to tap, given to them with `fairfuel trips assign`, which prints each share before and after.
    func correctAForgottenTap(plan: SimPlan, storePath: String, controlPath: String) throws {
        let untracked: [UntrackedDriving]
        do { untracked = try TripStore(path: storePath, readOnly: true).untrackedDriving() } catch { throw UserFacingError("\(error)") }
        for trip in plan.trips where !trip.tapped {
            guard let driver = trip.drivers.first else { continue }
            let from = trip.startUTC.millisecondsSinceEpoch, to = trip.endUTC.millisecondsSinceEpoch
            let pieces = untracked.filter { $0.toUTCMs > from && $0.fromUTCMs < to }.map { "u\($0.id)" }
            guard !pieces.isEmpty else { continue }
            let list = pieces.joined(separator: ",")
            print("")
            // The scenario's clock is the family's; the tables above are in UTC (no time zone set).
            let utc = ISO8601.dateMinute(utcMs: trip.startUTC.millisecondsSinceEpoch)
            print("A correction: \(driver) forgot to tap on \(plan.localText(trip.startMs)) local time, \(utc) UTC (fairfuel trips assign \(list) \(driver)):")
            try? StandardStreams.flush()
            // The demo's own (stopped) service, never the real one at the default socket.
            try TripsCommand.Assign.parse([list, driver, "--db", storePath, "--control", controlPath]).run()
            return
        }
    }
}
