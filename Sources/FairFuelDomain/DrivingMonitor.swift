import FairFuelCore
import FairFuelParsers

/// The domain in one value: presence, motion, sessions, trip metrics and fuel,
/// driven by events stamped with link time. Deterministic and allocation-free
/// per event in steady state.
public struct DrivingMonitor: Sendable {
    // Internal rather than private where `DrivingMonitor+Continuity.swift` carries out the continuity rules on them.
    public let configuration: MonitorConfiguration
    public private(set) var directory: DriverDirectory
    public private(set) var presence: BeaconPresenceTable
    public internal(set) var motion: MotionTracker
    public internal(set) var machine: SessionMachine
    public private(set) var utc = UTCAnchor()
    public private(set) var now = LinkMilliseconds(0)
    /// Ignition from an MCU with ignition sense; nil when the car does not report it.
    public private(set) var ignitionOn: Bool?
    /// The open trip's meter (read-only: status and tests).
    public internal(set) var trip: TripMeter
    private var fuel: FuelEstimator
    var fuelTotal = Liters.zero
    /// Fuel counted by estimators replaced since start-up (a new vehicle profile).
    private var fuelBase = Liters.zero
    var sessionFuelStart = Liters.zero
    var lastTripPointAt: LinkMilliseconds?
    var untracked: UntrackedDriving?
    /// The last driver's trip that a drive without a tap may continue, and the rules that judge it.
    var continuity: ContinuityJudge
    /// The previous motion step's time.
    var lastMotionStepAt: LinkMilliseconds?
    /// A trip offered at start-up, once its stored times are mapped: how long it had run and
    /// when the car stopped, for the engine's warmth at the next running sample.
    var warmthToSet: (drivenMs: Int64, stoppedAt: LinkMilliseconds)?
    /// Set while a session is ended at its last fix rather than now (`judgeAcrossRestart`).
    var endingAtLastFix: (endedAt: LinkMilliseconds, lastFixAt: LinkMilliseconds)?

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
        continuity = ContinuityJudge(rules: configuration.continuity, maximumMetersPerSecond: configuration.motion.maximumMetersPerSecond)
    }

    /// The open session's metrics so far (nil when idle).
    public var currentTrip: TripMetrics? { machine.driver == nil ? nil : trip.metrics }

    /// Fuel estimated since the monitor started, sessions and untracked driving together.
    public var totalFuel: Liters { fuelTotal }

    /// The calibration factor fuel is estimated with now.
    public var fuelCalibrationFactor: Double { fuel.calibrationFactor }

    /// A new calibration (after a full refuel) applies from now on; fuel already counted stays.
    public mutating func update(calibrationFactor: Double) {
        fuel.calibrationFactor = calibrationFactor
    }

    /// A new vehicle profile (its model and calibration) applies from now on: the open trip
    /// keeps what it counted, the new estimator goes on from there, warm.
    public mutating func update(fuel estimator: FuelEstimator) {
        fuelBase = fuelTotal
        fuel = estimator
        fuel.reset(coldStartFraction: 0)
    }

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

    /// Hands over the store's last trip at start-up; the continuity rules decide once the
    /// receiver's UTC maps its stored times onto link time. Call before the first event.
    public mutating func offer(_ trip: InterruptedTrip) {
        continuity.wait(for: ContinuationCandidate(
            driver: trip.driver, origin: trip.isOpen ? .restart : .stop, startedAt: nil, stopBeganAt: nil,
            startUTCMs: trip.startUTCMs, stopBeganUTCMs: trip.lastUTCMs, standingSinceUTCMs: trip.standingSinceUTCMs,
            metrics: trip.metrics, latitude: trip.latitude, longitude: trip.longitude, lastSpeed: trip.lastSpeed,
            sessionOpen: trip.isOpen, bridge: nil, held: trip.held))
        // A restart mid-trip finds the engine as warm as the trip made it (what is left of the
        // warm-up's extra fuel still comes); how long it has cooled since is known once the
        // receiver's time maps the stored stop (`resolvedCandidate`).
        if trip.isOpen { fuel.warmUp(afterDrivingMs: trip.lastUTCMs - trip.startUTCMs, stoppedForMs: 0) }
    }

    /// The driver whose trip may still go on without a tap, and why; nil when none.
    public var continuationCandidate: (driver: DriverID, origin: ContinuationOrigin, waitingForBeacon: Bool)? {
        continuity.candidate.map { ($0.driver, $0.origin, continuity.moveOff != nil) }
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
            if wasIdle && driver != nil {
                // A tap says who drives now: no continuation, whoever's trip it was.
                dropCandidate(at: time, emit)
                continuity.refusedDriver = nil
                flushUntracked(emit)
            }
            var signals = SignalBuffer()
            machine.tap(driver: driver, at: time) { signals.append($0) }
            forward(signals, emit)
        case let .advertisement(identities, rssi, _):
            let first = identities.first
            for identity in identities {
                presence.observe(
                    identity, driver: directory.driver(for: identity), rssiDBm: rssi, at: time, heardWith: identity == first ? nil : first)
            }
        case let .fix(fix, _):
            let reading = utc.update(fix: fix, at: time)
            if case let .badEpoch(stepMs, firstOfRun) = reading {
                // The receiver's clock disagrees with link time: neither its time nor its
                // position is the trip's (UTCAnchor says when it is believed again).
                if firstOfRun { emit(.receiverTimeRejected(stepMs: stepMs, at: time)) }
                break
            }
            if reading == .moved, let offset = utc.offsetMs {
                emit(.utcAnchored(offsetMs: offset, at: time))
                if let open = continuity.openAcrossRestart, let receiverUTC = fix.utc {
                    judgeAcrossRestart(open, fixUTCMs: receiverUTC.millisecondsSinceEpoch, fix: fix, at: time, offsetMs: offset, emit)
                }
            } else if let open = continuity.openAcrossRestart, open.implausibleSince != nil, fix.latitude != nil, fix.longitude != nil,
                let offset = utc.offsetMs, let receiverUTC = fix.utc
            {
                judgeAcrossRestart(open, fixUTCMs: receiverUTC.millisecondsSinceEpoch, fix: fix, at: time, offsetMs: offset, emit)
            }
            // A fix the judgement is still waiting out is not the trip's: the motion never sees it.
            if continuity.openAcrossRestart?.implausibleSince != nil { break }
            if let step = motion.accept(fix, at: time) { record(step, emit) }
        case let .ignition(on, _):
            ignitionOn = on
            if !on { motion.markStopped(at: time) }
        case .tick:
            trip.advance(to: time)
        case .mcuRestarted:
            trip.advance(to: time)
            // A new MCU clock (a reboot, another MCU, a simulator started later): link time
            // may no longer map to UTC as before. Stamp nothing until the receiver says.
            if let offset = utc.offsetMs {
                // What was driven before is stamped with the clock it was measured on (driving
                // held for a trip that may go on stays held: that trip takes it back).
                if continuity.candidate == nil { flushUntracked(emit) }
                // The open trip goes on only if the receiver's next time says it can (another MCU,
                // or this one after days, is not the same drive).
                continuity.openAcrossRestart = nil
                if let driver = machine.driver, let start = machine.startedAt, let last = motion.lastAccepted {
                    let lastFixAt = max(last.time, start)
                    continuity.openAcrossRestart = ContinuityJudge.OpenAcrossRestart(
                        driver: driver, startedAt: start, startUTCMs: start.value + offset, lastFixAt: lastFixAt,
                        lastFixUTCMs: lastFixAt.value + offset, latitude: last.latitude, longitude: last.longitude)
                }
                utc.reset()
                emit(.utcUnknown(at: time))
            }
        case .endSession:
            // Ending by hand also ends any wait for the last trip to go on.
            if machine.driver == nil {
                dropCandidate(at: time, emit)
                flushUntracked(emit)
            }
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
    /// Driving held while a continuation waits for its driver's beacon is reported too,
    /// with that driver among its candidates.
    public mutating func flushUntracked(_ emit: (DomainOutput) -> Void) {
        if let waiting = continuity.candidate, untracked != nil { untracked!.candidates.insert(waiting.driver) }
        if let chunk = untracked, chunk.distance.value > 0 || chunk.fuel.value > 0 {
            emit(.untrackedDriving(chunk))
        }
        untracked = nil
    }

    private mutating func evaluate(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard machine.driver != nil else {
            evaluateContinuation(at: time, emit)
            // A car stopped as long as a session's end needs has ended a drive nobody tapped in
            // for: its last chunk goes out now, so that driving after a park is a stretch of
            // its own (the store joins only chunks back to back), never one drive across it.
            if untracked != nil, continuity.candidate == nil, parkedAt(time) {
                flushUntracked(emit)
            }
            return
        }
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
        // Without ignition sense: a standing car whose driver's fob has gone quiet has nobody in
        // it to idle the engine, so the departure wait bills no idle fuel; nor does the wait for
        // that driver's trip to go on (a fuel stop that ended the session, a restart mid-stop,
        // which knows nothing of how long the car has stood).
        if let driver = machine.driver ?? continuity.candidate?.driver, directory.hasBeacon(driver),
           !presence.isPresent(driver: driver, at: now), motion.hasBeenStopped(forMs: 0, at: now)
        {
            return false
        }
        if machine.driver != nil { return true }
        return !motion.hasBeenStopped(forMs: configuration.assumedEngineOffAfterMs, at: now)
    }

    /// Stopped as long as a session's end needs: what the receiver still reports of a parked
    /// car is its wander, not driving (an always-powered dongle hears it all through a park).
    private func parkedAt(_ time: LinkMilliseconds) -> Bool {
        motion.hasBeenStopped(forMs: configuration.session.stoppedMs, at: time)
    }

    private mutating func record(_ step: MotionStep, _ emit: (DomainOutput) -> Void) {
        var fuelDelta = Liters.zero
        if engineRunning {
            if let warmth = warmthToSet {
                fuel.warmUp(afterDrivingMs: warmth.drivenMs, stoppedForMs: step.time.value - warmth.stoppedAt.value)
                warmthToSet = nil
            }
            let cumulative = fuelBase + fuel.add(timeMs: step.time.value, speed: step.speed)
            fuelDelta = Liters(max(0, cumulative.value - fuelTotal.value))
            fuelTotal = cumulative
        } else {
            fuel.pause()
        }
        if machine.driver == nil && continuity.candidate != nil { considerContinuation(step, emit) }
        lastMotionStepAt = step.time
        if continuity.refusedDriver != nil && motion.hasBeenStopped(forMs: configuration.session.stoppedMs, at: step.time) {
            continuity.refusedDriver = nil
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
        } else if case let distance = parkedAt(step.time) ? Meters.zero : step.distance, distance.value > 0 || fuelDelta.value > 0 {
            var chunk = untracked ?? UntrackedDriving(from: step.time, to: step.time, distance: .zero, fuel: .zero)
            chunk.to = step.time
            chunk.distance += distance
            chunk.fuel += fuelDelta
            if let refused = continuity.refusedDriver { chunk.candidates.insert(refused) }
            noteFobsAboard(in: &chunk.candidates, at: step.time)
            untracked = chunk
            // Held whole while a continuation may still take it back into the trip.
            if continuity.candidate == nil && chunk.to.value - chunk.from.value >= configuration.untrackedChunkMs { flushUntracked(emit) }
        }
    }

    mutating func forward(_ signals: SignalBuffer, _ emit: (DomainOutput) -> Void) {
        for index in 0..<signals.count { forward(signals[index], emit) }
    }

    mutating func forward(_ signal: SessionSignal, _ emit: (DomainOutput) -> Void) {
        switch signal {
        case let .transition(from, to, at):
            emit(.transition(from: from, to: to, at: at))
        case let .started(driver, at):
            trip.start(at: at)
            sessionFuelStart = fuelTotal
            lastTripPointAt = nil
            emit(.sessionStarted(driver: driver, at: at))
        case let .ended(driver, startedAt, at, reason):
            let metrics: TripMetrics
            var endedAt = at
            if let lastFix = endingAtLastFix {
                metrics = trip.finish(measuredUntil: lastFix.lastFixAt)
                endedAt = lastFix.endedAt
            } else {
                metrics = trip.finish(at: at)
            }
            let record = SessionRecord(
                driver: driver, startedAt: startedAt, endedAt: endedAt, reason: reason,
                stoppedAt: reason == .departed ? motion.stopBegan(at: at) : nil,
                driverLeftAt: reason == .departed ? presence.lastPresent(driver: driver) : nil,
                metrics: metrics)
            emit(.sessionEnded(record))
            if reason == .departed {
                // The driver may come back and drive on without a tap (ContinuityThresholds).
                continuity.wait(for: ContinuationCandidate(
                    driver: driver, origin: .stop, startedAt: startedAt, stopBeganAt: record.stoppedAt ?? at,
                    startUTCMs: nil, stopBeganUTCMs: nil, metrics: metrics, latitude: motion.lastAccepted?.latitude,
                    longitude: motion.lastAccepted?.longitude, lastSpeed: .zero, sessionOpen: false, bridge: nil))
            }
        case let .feedback(pattern):
            emit(.feedback(pattern))
        }
    }
}
