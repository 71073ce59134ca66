import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelSimulation
import Synchronization

/// A microcontroller on a pseudo-terminal, speaking the FairFuel link protocol as a
/// scenario scripts it, in real time or sped up.
///
/// ```swift
/// let mcu = try VirtualMCU(scenario: scenario, options: VirtualMCUOptions(speed: 600))
/// let path = try mcu.start()                 // open this like a serial port
/// let run = mcu.runInBackground()            // or mcu.run() on a thread of your own
/// ...
/// mcu.stop(); let report = try run.join().get()
/// ```
///
/// Threading: `start` and `run` belong to one thread at a time; `stop`, `status`,
/// `feedback`, `events` and `path` may be read from any thread.
public final class VirtualMCU: @unchecked Sendable {
    public let plan: SimPlan
    public let options: VirtualMCUOptions

    private struct Shared {
        var simulatedMs: Int64 = 0
        var devicePath: String?
        var statistics = VirtualMCUStatistics()
        var feedback: [FeedbackRecord] = []
        var events: [SimEvent] = []
        var running = false
    }

    private let shared = Mutex(Shared())
    private let stopRequested = Atomic<Bool>(false)
    // Owned by the thread in start()/run().
    private var core: VirtualMCUCore
    private var port: PseudoTerminalPort?
    private var started = false

    /// Plans `plan`'s scenario into an MCU; nothing is opened yet.
    public init(plan: SimPlan, options: VirtualMCUOptions = VirtualMCUOptions()) throws(VirtualMCUError) {
        guard options.speed > 0, options.speed.isFinite, (options.idleSpeed ?? 1) > 0 else {
            throw .invalidSpeed(options.speed)
        }
        self.plan = plan
        self.options = options
        core = VirtualMCUCore(plan: plan)
        core.unseenOffShare = max(0, 1 - 1 / options.speed)
    }

    /// Plans `scenario` (reading its NMEA logs) into an MCU.
    public convenience init(scenario: SimScenario, options: VirtualMCUOptions = VirtualMCUOptions()) throws(VirtualMCUError) {
        let plan: SimPlan
        do { plan = try SimPlanner.plan(scenario) } catch { throw .scenario(error) }
        try self.init(plan: plan, options: options)
    }

    /// Plans `scenario` at `speed` with default options.
    public convenience init(scenario: SimScenario, speed: Double) throws(VirtualMCUError) {
        try self.init(scenario: scenario, options: VirtualMCUOptions(speed: speed))
    }

    deinit {
        if let link = options.linkPath { DeviceLink.remove(link) }
    }

    /// Opens the pseudo-terminal (and the link); returns the path for the host to open:
    /// the link when there is one, else the device, e.g. `/dev/pts/4`.
    @discardableResult
    public func start() throws(VirtualMCUError) -> String {
        guard !started else { return path ?? "" }
        try openPort()
        started = true
        return path ?? ""
    }

    /// The path the host should open (the link, else the current device); nil before `start`.
    public var path: String? {
        guard let device = shared.withLock({ $0.devicePath }) else { return nil }
        return options.linkPath ?? device
    }

    /// The current pseudo-terminal device (it changes after an unplug).
    public var devicePath: String? { shared.withLock { $0.devicePath } }

    /// Simulated milliseconds since the scenario's start.
    public var simulatedMs: Int64 { shared.withLock { $0.simulatedMs } }

    public var statistics: VirtualMCUStatistics { shared.withLock { $0.statistics } }

    /// The FEEDBACK patterns the host asked for so far.
    public var feedback: [FeedbackRecord] { shared.withLock { $0.feedback } }

    /// Every event so far (kept for the whole run; a week-long run keeps a few thousand).
    public var events: [SimEvent] { shared.withLock { $0.events } }

    public var isRunning: Bool { shared.withLock { $0.running } }

    /// Closes the pseudo-terminal and removes the link (the host sees a hang-up); call after `run` returned.
    public func close() {
        guard !isRunning else { return }
        port = nil
        started = false
        if let link = options.linkPath { DeviceLink.remove(link) }
        shared.withLock { $0.devicePath = nil }
    }

    /// Asks `run` to return soon (within about 50 ms); callable from any thread.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    /// Runs on a new thread; `join()` returns the report.
    public func runInBackground(until limit: VirtualMCURunLimit = .scenarioEnd) -> BlockingThread<Result<VirtualMCUReport, VirtualMCUError>> {
        BlockingThread { [self] in
            do throws(VirtualMCUError) { return .success(try run(until: limit)) } catch { return .failure(error) }
        }
    }

    /// Plays the scenario on the pseudo-terminal until `limit` or `stop()`; blocks.
    public func run(until limit: VirtualMCURunLimit = .scenarioEnd) throws(VirtualMCUError) -> VirtualMCUReport {
        guard started else { throw .notStarted }
        let alreadyRunning = shared.withLock { state -> Bool in
            defer { state.running = true }
            return state.running
        }
        guard !alreadyRunning else { throw .alreadyRunning }
        defer { shared.withLock { $0.running = false } }

        let endMs: Int64 = switch limit {
        case .scenarioEnd: plan.endMs
        case .simulatedMs(let ms): ms
        }
        var readBuffer = [UInt8](repeating: 0, count: 4096)
        var transmit: [UInt8] = []
        transmit.reserveCapacity(options.transmitBufferBytes)
        var transmitOffset = 0
        var outputs: [VirtualMCUCore.Output] = []
        var connected = false

        func interrupted() -> Bool {
            stopRequested.load(ordering: .relaxed) || (options.interruption?() ?? false)
        }

        if options.waitForHost {
            while !interrupted() {
                guard let port else { break }
                let readiness = port.wait(timeoutMs: 50, wantWrite: false)
                if !readiness.hangUp { break }
                Pause.milliseconds(20)
            }
        }

        let clock = ContinuousClock()
        let origin = clock.now
        func realMs() -> Double {
            let elapsed = clock.now - origin
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        var anchorReal = 0.0
        var anchorSim = core.now
        var speed = options.speed
        func simNow() -> Int64 { anchorSim + Int64((realMs() - anchorReal) * speed) }

        var reason = VirtualMCUReport.Reason.limit
        while true {
            if interrupted() {
                reason = .stopped
                flush(&transmit, &transmitOffset, connected: connected, patienceMs: 200)
                break
            }
            var now = min(simNow(), endMs)
            if options.lossless {
                // Simulated time waits for the host rather than dropping frames, and never
                // catches up afterwards: it continues from where it was held.
                if transmit.count - transmitOffset > options.transmitBufferBytes / 2 {
                    now = core.now
                } else {
                    now = min(now, core.now + options.losslessStepMs)
                }
                if now < simNow() {
                    anchorSim = now
                    anchorReal = realMs()
                }
            }
            core.advance(to: now, into: &outputs)
            publish()  // before the bytes leave, so that observers are never behind the host
            try handle(&outputs, transmit: &transmit, transmitOffset: &transmitOffset, connected: &connected)
            if now >= endMs {
                reason = limit == .scenarioEnd ? .scenarioEnd : .limit
                flush(&transmit, &transmitOffset, connected: connected, patienceMs: 200)
                break
            }

            // Speed: faster through quiet stretches.
            var target = min(core.nextEventTime, endMs)
            if let idleSpeed = options.idleSpeed {
                let quiet = core.quietUntil(margin: 30_000)
                let wanted = quiet == nil ? options.speed : idleSpeed
                if wanted != speed {
                    anchorSim = simNow()
                    anchorReal = realMs()
                    speed = wanted
                }
                if let quiet { target = min(target, quiet) }
            }
            let waitMs = Double(target - simNow()) / speed
            // Lossless runs as fast as the host reads: a wait under a millisecond is no wait.
            let timeout: Int32 = waitMs <= 0 || (options.lossless && waitMs < 1) ? 0 : Int32(min(50, waitMs.rounded(.up)))

            guard let port else {
                Pause.milliseconds(timeout)
                continue
            }
            let readiness = port.wait(timeoutMs: timeout, wantWrite: connected && transmitOffset < transmit.count)
            if readiness.hangUp && !readiness.readable {
                connected = false
                Pause.milliseconds(min(timeout, 20))
                continue
            }
            connected = true
            if readiness.readable {
                let bytes = port.readAvailable(into: &readBuffer)
                if !bytes.isEmpty {
                    let at = max(min(simNow(), endMs), core.now)
                    core.receive(bytes, at: at, into: &outputs)
                    publish()
                    try handle(&outputs, transmit: &transmit, transmitOffset: &transmitOffset, connected: &connected)
                }
            }
            flush(&transmit, &transmitOffset, connected: connected, patienceMs: 0)
        }
        publish()
        return VirtualMCUReport(
            reason: reason, simulatedMs: core.now, statistics: core.statistics, feedback: core.feedback)
    }

    // MARK: run-loop helpers

    private func openPort() throws(VirtualMCUError) {
        let newPort: PseudoTerminalPort
        do { newPort = try PseudoTerminalPort() } catch { throw .port(error) }
        if let link = options.linkPath {
            do { try DeviceLink.point(link, to: newPort.devicePath) } catch { throw .link(error.description) }
        }
        port = newPort
        shared.withLock { $0.devicePath = newPort.devicePath }
    }

    private func handle(
        _ outputs: inout [VirtualMCUCore.Output], transmit: inout [UInt8], transmitOffset: inout Int, connected: inout Bool
    ) throws(VirtualMCUError) {
        for output in outputs {
            switch output {
            case .bytes(let bytes, _):
                if transmitOffset > 0 && transmitOffset == transmit.count {
                    transmit.removeAll(keepingCapacity: true)
                    transmitOffset = 0
                }
                if !options.lossless && transmit.count - transmitOffset + bytes.count > options.transmitBufferBytes {
                    core.noteDropped()
                } else {
                    if transmitOffset > options.transmitBufferBytes {
                        transmit.removeFirst(transmitOffset)
                        transmitOffset = 0
                    }
                    transmit.append(contentsOf: bytes)
                }
            case .unplug:
                flush(&transmit, &transmitOffset, connected: connected, patienceMs: 50)
                transmit.removeAll(keepingCapacity: true)
                transmitOffset = 0
                port = nil
                connected = false
                if let link = options.linkPath { DeviceLink.remove(link) }
            case .replug:
                try openPort()
                let path = shared.withLock { $0.devicePath } ?? ""
                let event = SimEvent(simMs: core.now, kind: .replugged(path: path))
                shared.withLock { $0.events.append(event) }
                options.onEvent?(event)
            }
        }
        outputs.removeAll(keepingCapacity: true)
        if connected { flush(&transmit, &transmitOffset, connected: true, patienceMs: 0) }
    }

    /// Writes queued bytes the terminal takes; with `patienceMs`, waits that long for room.
    private func flush(_ transmit: inout [UInt8], _ offset: inout Int, connected: Bool, patienceMs: Int32) {
        guard let port, connected else { return }
        var waited: Int32 = 0
        while offset < transmit.count {
            let written = port.writeSome(transmit[offset...])
            offset += written
            if offset >= transmit.count { break }
            guard waited < patienceMs else { break }
            _ = port.wait(timeoutMs: 10, wantWrite: true)
            waited += 10
        }
        if offset == transmit.count {
            transmit.removeAll(keepingCapacity: true)
            offset = 0
        }
    }

    private func publish() {
        let events = core.takeEvents()
        let statistics = core.statistics
        let feedback = core.feedback
        let now = core.now
        shared.withLock { state in
            state.simulatedMs = now
            state.statistics = statistics
            if state.feedback.count != feedback.count { state.feedback = feedback }
            state.events.append(contentsOf: events)
        }
        if let onEvent = options.onEvent {
            for event in events { onEvent(event) }
        }
    }
}
