import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelParsers
import FairFuelService
import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelStore

/// `fairfuel demo`: the virtual MCU and the service, in one process, on a pseudo-terminal,
/// with a throw-away store; the scenario's refuels are entered as the family would.
public final class DemoRun {
    public let plan: SimPlan
    public let directory: String
    public let speed: Double
    public let idleSpeed: Double?
    public var progressIntervalMs: Int64 = 1_000
    public var logger = Logger(minimumLevel: .warning, style: .plain, sink: nil)

    public var storePath: String { directory + "/fairfuel.db" }
    /// `fairfuel status --control PATH` works while the demo runs.
    public var controlSocketPath: String { directory + "/control.sock" }

    /// `directory` must exist and be writable; the store and the MCU link go there.
    public init(plan: SimPlan, directory: String, speed: Double, idleSpeed: Double?) {
        self.plan = plan
        self.directory = directory
        self.speed = speed
        self.idleSpeed = idleSpeed
    }

    /// The board the demo runs on: a Pi Zero 2 W's sizes, with trip points flushed by count
    /// only (a throw-away store need not bound what a power cut loses, and at hundreds of
    /// times real speed a flush every 10 s of link time would be an fsync every few ms).
    public static var board: BoardProfile {
        var board = BoardProfile.piZero2W
        board.store.tripPointFlushSeconds = 24 * 3600
        board.store.tripPointFlushPoints = 1_000
        board.link.reconnectBackoffMinMs = 20
        board.link.reconnectBackoffMaxMs = 200
        board.gnss.source = .mcu
        board.link.mcuBoard = "fairfuel-rev-b"  // the virtual MCU says it is rev B (USB)
        board.service.watchdogSeconds = 0
        return board
    }

    /// Runs the scenario to its end (plus five parked minutes, so that the last session ends
    /// by the domain's own rules), then enters the refuels; blocks.
    public func run(progress: (DemoProgress) -> Void = { _ in }) throws -> DemoReport {
        let started = MonotonicClock()
        try provision()

        var mcuOptions = VirtualMCUOptions(speed: speed, idleSpeed: idleSpeed, linkPath: directory + "/mcu")
        mcuOptions.waitForHost = true
        // Results, not an overload test: the MCU waits for the service rather than dropping frames.
        mcuOptions.lossless = true
        let mcu = try VirtualMCU(plan: plan, options: mcuOptions)
        let path = try mcu.start()
        let runtime = try ServiceRuntime(options: .init(
            board: DemoRun.board, storePath: storePath, port: path, controlSocketPath: controlSocketPath, logger: logger))
        let thread = mcu.runInBackground(until: .simulatedMs(plan.endMs + 300_000))

        var lastProgress = LinkMilliseconds(0)
        var lastShown: (Int64, Int, Int)?
        var finishedAt: LinkMilliseconds?
        runtime.runLoop(shouldStop: {
            let now = started.now
            if now - lastProgress >= progressIntervalMs {
                lastProgress = now
                let counts = runtime.sessionCounts
                let simulated = mcu.simulatedMs
                if lastShown.map({ $0 != (simulated, counts.started, counts.ended) }) ?? true {
                    lastShown = (simulated, counts.started, counts.ended)
                    progress(DemoProgress(
                        simulatedMs: simulated, localTime: plan.localText(simulated),
                        sessionsStarted: counts.started, sessionsEnded: counts.ended))
                }
            }
            // The MCU is done: give the service a moment to read what is still on the line.
            guard thread.isFinished else { return false }
            if finishedAt == nil { finishedAt = now }
            return now - finishedAt! >= 300
        })
        let mcuReport = try thread.join().get()
        mcu.close()
        let counts = runtime.sessionCounts
        let link = runtime.linkCounters
        let reboots = runtime.mcuReboots
        let refuels = try enterRefuels()
        return DemoReport(
            storePath: storePath, simulatedMs: mcuReport.simulatedMs, realMs: started.now.value,
            sessionsStarted: counts.started, sessionsEnded: counts.ended, refuelsEntered: refuels,
            framesSent: mcuReport.statistics.framesSent, link: link, mcuReboots: reboots)
    }

    /// The scenario's drivers, with their tags and beacons, as a technician would provision them.
    private func provision() throws {
        let store = try TripStore(path: storePath)
        for driver in plan.scenario.drivers {
            var tags: [TagIdentity] = []
            if let tag = plan.tag(ofDriver: driver.name) {
                tags.append(.uid(try TagUID(bytes: tag.uid[...])))
            }
            if let uri = driver.driverURI { tags.append(.driver(uri.driverID)) }
            _ = try store.addDriver(name: driver.name, tags: tags, beacons: driver.beacon.map { [$0] } ?? [])
        }
    }

    /// The fuel stops' refuels that say litres and cost, in time order, as `fairfuel refuel` would.
    ///
    /// The first is the baseline fill-up (what the tank held before is unknown; its bill is "before
    /// tracking"), entered as the scenario says. From that known level, a full tank later takes
    /// what the car burnt since the previous fill, tracked and untracked, as the service estimated
    /// it; it costs that at the scenario's price per litre (its cost over its litres). So the
    /// book adds up as the family would read it: the pump matches the driving.
    private func enterRefuels() throws -> Int {
        let store = try TripStore(path: storePath)
        var entered = 0
        var previous: Int64?
        for refuel in plan.refuels.sorted(by: { $0.timeMs < $1.timeMs }) {
            guard let liters = refuel.liters, let cost = refuel.cost, liters.value > 0 else { continue }
            let at = refuel.utc.millisecondsSinceEpoch
            var volume = liters.value
            var bill = cost
            if let previous {
                let burnt = try store.estimatedFuel(fromUTCMs: previous, toUTCMs: at).liters
                volume = max(0.01, (burnt * 100).rounded() / 100)
                bill = MinorUnits(Int64((volume * Double(cost.value) / liters.value).rounded()))
            }
            _ = try store.addRefuel(RefuelInput(atUTCMs: at, liters: volume, cost: bill))
            previous = at
            entered += 1
        }
        return entered
    }
}
