import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelSimulation
import FairFuelSimulationRunner
import Synchronization

/// Set by SIGINT/SIGTERM; the virtual MCU's run loop polls it.
private let simInterrupted = Atomic<Bool>(false)

/// `fairfuel sim SCENARIO`: a virtual MCU on a pseudo-terminal.
struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Play a virtual MCU on a pseudo-terminal, as a scenario file scripts it.",
        discussion: """
            Prints the path to open like a serial port (a symbolic link, re-pointed at the new \
            pseudo-terminal when the scenario unplugs the MCU), then one line per event. The \
            scenario format is documented in scenarios/README.md. Stops at the scenario's end, \
            after --seconds, or on SIGINT/SIGTERM.
            """)

    @Argument(help: "The scenario file (see scenarios/README.md).")
    var scenario: String

    @Option(parsing: .unconditional, help: "Simulated seconds per real second (600: ten simulated minutes a second).", transform: CheckedArgument.simulationSpeed)
    var speed: Double = 1

    @Option(parsing: .unconditional, help: "Speed while nothing happens (parked, GNSS off, nothing scripted for 30 simulated seconds).", transform: CheckedArgument.simulationSpeed)
    var idleSpeed: Double?

    @Option(help: "The stable path to open: a symbolic link to the current pseudo-terminal.")
    var link = "/tmp/fairfuel-sim/mcu"

    @Flag(help: "Make no link; print the /dev/pts path only (it changes after an unplug).")
    var noLink = false

    @Flag(help: "Start simulated time at once instead of when the host opens the port.")
    var noWait = false

    // inf, nan, 1e400 or -5 would trap in the conversion to milliseconds: plain decimals within a year only.
    @Option(parsing: .unconditional, help: "Stop after this many simulated seconds instead of at the scenario's end (up to a year).", transform: CheckedArgument.simulatedSeconds)
    var seconds: Double?

    @Flag(help: "Print the path and the summary only, not every event.")
    var quiet = false

    @Flag(help: "Plan the scenario, print its trips and refuels, and exit without running.")
    var dryRun = false

    func validate() throws {
        guard speed > 0, speed.isFinite, speed <= 1_000_000 else { throw ValidationError("--speed must be above 0 and at most 1000000") }
        if let idleSpeed {
            guard idleSpeed > 0, idleSpeed.isFinite, idleSpeed <= 10_000_000 else {
                throw ValidationError("--idle-speed must be above 0 and at most 10000000")
            }
        }
        if let seconds { guard seconds > 0 else { throw ValidationError("--seconds must be above 0") } }
        guard noLink || link.hasPrefix("/") else { throw ValidationError("--link must be an absolute path") }
    }

    func run() throws {
        let parsed: SimScenario
        let plan: SimPlan
        do {
            parsed = try SimScenarioParser.load(path: scenario)
            plan = try SimPlanner.plan(parsed)
        } catch {
            throw UserFacingError(error.description)
        }
        if dryRun {
            printPlan(plan)
            return
        }
        var options = VirtualMCUOptions(speed: speed, idleSpeed: idleSpeed, linkPath: noLink ? nil : link)
        options.waitForHost = !noWait
        options.interruption = { simInterrupted.load(ordering: .relaxed) }
        if !quiet {
            options.onEvent = { event in
                print("[\(plan.localText(event.simMs))] \(event)")
                try? StandardStreams.flush()
            }
        }
        // Before the link exists, so that a signal never leaves it behind.
        try catchStopSignals { _ in simInterrupted.store(true, ordering: .relaxed) }
        let mcu: VirtualMCU
        let path: String
        do {
            mcu = try VirtualMCU(plan: plan, options: options)
            path = try mcu.start()
        } catch {
            throw UserFacingError(error.description)
        }
        print("virtual MCU '\(parsed.title)' on \(mcu.devicePath ?? path)")
        print("open \(path)" + (options.waitForHost ? " (simulated time starts when it is opened)" : ""))
        try? StandardStreams.flush()
        let limit: VirtualMCURunLimit = seconds.map { .simulatedMs(Int64($0 * 1000)) } ?? .scenarioEnd
        let report: VirtualMCUReport
        do {
            report = try mcu.run(until: limit)
        } catch {
            mcu.close()
            throw UserFacingError(error.description)
        }
        // The host sees the hang-up and the link is gone before the summary says we stopped.
        mcu.close()
        let s = report.statistics
        print("stopped at \(plan.localText(report.simulatedMs)) (\(report.reason)): \(s.framesSent) frames, \(s.bytesSent) bytes, "
            + "\(s.framesDropped) dropped, \(s.framesCorrupted) corrupted, \(s.garbageBursts) garbage bursts, \(s.acksSent) ACKs, "
            + "\(report.feedback.count) FEEDBACK")
    }

    private func printPlan(_ plan: SimPlan) {
        print("\(plan.scenario.title): \(plan.trips.count) trips, \(plan.refuels.count) refuels, ends \(plan.localText(plan.endMs))")
        for trip in plan.trips {
            let who = trip.drivers.isEmpty ? "nobody" : trip.drivers.joined(separator: " then ")
            let km = Double(Int(trip.distanceMeters / 100)) / 10
            print("trip \(plan.localText(trip.startMs)) - \(plan.localText(trip.endMs)): \(who)\(trip.tapped ? "" : " (no tap)"), "
                + "\(km) km" + (trip.destination.map { " to \($0)" } ?? ""))
        }
        for refuel in plan.refuels {
            let liters = refuel.liters.map { " \($0.value) L" } ?? ""
            let cost = refuel.cost.map { " " + MoneyText.format($0) } ?? ""
            print("refuel \(refuel.utc.iso8601) (\(plan.localText(refuel.timeMs))) by \(refuel.driver ?? "nobody"):\(liters)\(cost)")
        }
    }
}
