import FairFuelCore
import FairFuelParsers

/// Sizes and thresholds of the domain, from the board and vehicle profiles.
public struct MonitorConfiguration: Sendable, Equatable {
    public var session = SessionThresholds()
    public var motion = MotionThresholds()
    public var beaconTableCapacity = 32
    public var rssiWindowSamples = 8
    /// Trip points are kept at this interval (1 Hz by default, whatever the GNSS rate).
    public var tripPointIntervalMs: Int64 = 1_000
    /// Untracked driving is reported in chunks of at most this length.
    public var untrackedChunkMs: Int64 = 60_000
    /// Without ignition sense and outside a session, a stopped engine is assumed off after this.
    public var assumedEngineOffAfterMs: Int64 = 300_000

    public init() {}
}

/// The domain in one value: presence, motion, sessions, trip metrics and fuel,
/// driven by events stamped with link time. Deterministic and allocation-free
/// per event in steady state.
public struct DrivingMonitor: Sendable {
    public let configuration: MonitorConfiguration
    public private(set) var directory: DriverDirectory
    public private(set) var presence: BeaconPresenceTable
    public private(set) var motion: MotionTracker
    public private(set) var machine: SessionMachine
    public private(set) var utc = UTCAnchor()
    public private(set) var now = LinkMilliseconds(0)
    /// Ignition from an MCU with ignition sense; nil when the car does not report it.
    public private(set) var ignitionOn: Bool?
    /// The open trip's meter (read-only: status and tests).
    public private(set) var trip: TripMeter
    private var fuel: FuelEstimator
    private var fuelTotal = Liters.zero
    private var sessionFuelStart = Liters.zero
    private var lastTripPointAt: LinkMilliseconds?
    private var untracked: UntrackedDriving?

    public init(configuration: MonitorConfiguration, directory: DriverDirectory, fuel: FuelEstimator) {
        self.configuration = configuration
        self.directory = directory
        presence = BeaconPresenceTable(
            capacity: configuration.beaconTableCapacity, windowSamples: configuration.rssiWindowSamples,
            thresholds: configuration.session)
        motion = MotionTracker(thresholds: configuration.motion, sessionThresholds: configuration.session)
        machine = SessionMachine(cooldownMs: configuration.session.cooldownMs)
        trip = TripMeter(thresholds: configuration.motion, stoppedBelowMetersPerSecond: configuration.session.stoppedBelowMetersPerSecond)
        self.fuel = fuel
    }

    /// The open session's metrics so far (nil when idle).
    public var currentTrip: TripMetrics? { machine.driver == nil ? nil : trip.metrics }

    /// Fuel estimated since the monitor started, sessions and untracked driving together.
    public var totalFuel: Liters { fuelTotal }

    /// Replaces the provisioning (after a technician's change); tracked beacons are re-labelled.
    public mutating func update(directory: DriverDirectory) {
        self.directory = directory
        presence.relabel { directory.driver(for: $0) }
    }

    /// Reopens a session the store holds open (the service restarted without a power cut).
    public mutating func resume(driver: DriverID, startedAt: LinkMilliseconds) {
        machine.resume(driver: driver, startedAt: startedAt)
        trip.start(at: startedAt)
        sessionFuelStart = fuelTotal
    }

    /// Handles one event; `emit` receives every output in order.
    public mutating func handle(_ event: DomainEvent, _ emit: (DomainOutput) -> Void) {
        // Time never runs backwards, whatever the source does.
        let time = max(event.time, now)
        now = time
        switch event {
        case let .tagRead(read, _):
            let driver = directory.driver(for: read)
            if driver == nil { emit(.unknownTag(read.uid, at: time)) }
            let wasIdle = machine.driver == nil
            if wasIdle && driver != nil { flushUntracked(emit) }
            var signals = SignalBuffer()
            machine.tap(driver: driver, at: time) { signals.append($0) }
            forward(signals, emit)
        case let .advertisement(identities, rssi, _):
            for identity in identities {
                presence.observe(identity, driver: directory.driver(for: identity), rssiDBm: rssi, at: time)
            }
        case let .fix(fix, _):
            if utc.update(fix: fix, at: time), let offset = utc.offsetMs {
                emit(.utcAnchored(offsetMs: offset, at: time))
            }
            if let step = motion.accept(fix, at: time) { record(step, emit) }
        case let .ignition(on, _):
            ignitionOn = on
            if !on { motion.markStopped(at: time) }
        case .tick, .mcuRestarted:
            trip.advance(to: time)
        case .endSession:
            var signals = SignalBuffer()
            machine.endSession(.manual, at: time) { signals.append($0) }
            forward(signals, emit)
        }
        evaluate(at: time, emit)
    }

    /// Ends the open session now (service shutdown is not an end; this is for power loss recovery and tests).
    public mutating func endSession(_ reason: SessionEndReason, at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        var signals = SignalBuffer()
        machine.endSession(reason, at: max(time, now)) { signals.append($0) }
        forward(signals, emit)
    }

    /// Reports untracked driving accumulated so far (before a shutdown or a refuel).
    public mutating func flushUntracked(_ emit: (DomainOutput) -> Void) {
        if let chunk = untracked, chunk.distance.value > 0 || chunk.fuel.value > 0 {
            emit(.untrackedDriving(chunk))
        }
        untracked = nil
    }

    private mutating func evaluate(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard machine.driver != nil else { return }
        let ready = readyToStop(at: time)
        var signals = SignalBuffer()
        machine.evaluate(readyToStop: ready, at: time) { signals.append($0) }
        forward(signals, emit)
    }

    /// Both departure conditions: the driver gone long enough, the vehicle stopped long enough.
    private func readyToStop(at time: LinkMilliseconds) -> Bool {
        guard let driver = machine.driver, let start = machine.startedAt else { return false }
        let thresholds = configuration.session
        if directory.hasBeacon(driver) {
            if presence.isPresent(driver: driver, at: time) { return false }
            let lastSeen = max(presence.lastPresent(driver: driver) ?? start, start)
            guard time.value - lastSeen.value >= thresholds.beaconAbsentMs else { return false }
            return motion.hasBeenStopped(forMs: thresholds.stoppedMs, at: time)
        }
        if let ignition = ignitionOn {
            return !ignition && motion.hasBeenStopped(forMs: thresholds.stoppedMs, at: time)
        }
        return motion.hasBeenStopped(forMs: thresholds.noBeaconStopMs, at: time)
    }

    private var engineRunning: Bool {
        if let ignition = ignitionOn { return ignition }
        if let driver = machine.driver {
            // Without ignition sense: a standing car whose driver's fob has gone quiet has
            // nobody in it to idle the engine, so the departure wait bills no idle fuel.
            let driverGone = directory.hasBeacon(driver) && !presence.isPresent(driver: driver, at: now)
            return !(driverGone && motion.hasBeenStopped(forMs: 0, at: now))
        }
        return !motion.hasBeenStopped(forMs: configuration.assumedEngineOffAfterMs, at: now)
    }

    private mutating func record(_ step: MotionStep, _ emit: (DomainOutput) -> Void) {
        var fuelDelta = Liters.zero
        if engineRunning {
            let cumulative = fuel.add(timeMs: step.time.value, speed: step.speed)
            fuelDelta = Liters(max(0, cumulative.value - fuelTotal.value))
            fuelTotal = cumulative
        } else {
            fuel.pause()
        }
        if let driver = machine.driver {
            trip.add(step)
            trip.addFuel(fuelDelta)
            if lastTripPointAt == nil || step.time.value - lastTripPointAt!.value >= configuration.tripPointIntervalMs {
                lastTripPointAt = step.time
                emit(.tripPoint(TripPoint(
                    driver: driver, at: step.time, latitude: step.latitude, longitude: step.longitude,
                    speed: step.speed, distance: trip.metrics.distance, fuel: trip.metrics.fuel)))
            }
        } else if step.distance.value > 0 || fuelDelta.value > 0 {
            var chunk = untracked ?? UntrackedDriving(from: step.time, to: step.time, distance: .zero, fuel: .zero)
            chunk.to = step.time
            chunk.distance += step.distance
            chunk.fuel += fuelDelta
            untracked = chunk
            if chunk.to.value - chunk.from.value >= configuration.untrackedChunkMs { flushUntracked(emit) }
        }
    }

    private mutating func forward(_ signals: SignalBuffer, _ emit: (DomainOutput) -> Void) {
        for index in 0..<signals.count { forward(signals[index], emit) }
    }

    private mutating func forward(_ signal: SessionSignal, _ emit: (DomainOutput) -> Void) {
        switch signal {
        case let .transition(from, to, at):
            emit(.transition(from: from, to: to, at: at))
        case let .started(driver, at):
            trip.start(at: at)
            sessionFuelStart = fuelTotal
            lastTripPointAt = nil
            emit(.sessionStarted(driver: driver, at: at))
        case let .ended(driver, startedAt, at, reason):
            let metrics = trip.finish(at: at)
            let record = SessionRecord(
                driver: driver, startedAt: startedAt, endedAt: at, reason: reason,
                stoppedAt: reason == .departed ? motion.stopBegan(at: at) : nil,
                driverLeftAt: reason == .departed ? presence.lastPresent(driver: driver) : nil,
                metrics: metrics)
            emit(.sessionEnded(record))
        case let .feedback(pattern):
            emit(.feedback(pattern))
        }
    }
}

/// The few signals one machine call produces, held inline so that handling them allocates nothing.
struct SignalBuffer {
    static let capacity = 8
    private var items = InlineArray<8, SessionSignal?>(repeating: nil)
    private(set) var count = 0

    mutating func append(_ signal: SessionSignal) {
        precondition(count < SignalBuffer.capacity, "a session transition emits at most 8 signals")
        items[count] = signal
        count += 1
    }

    subscript(index: Int) -> SessionSignal { items[index]! }
}
