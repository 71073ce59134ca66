import FairFuelCore
import FairFuelParsers

// The continuity rules as the monitor carries them out: after a restart, whether a trip goes on.
extension DrivingMonitor {
    /// The first fix anchoring UTC after an MCU restart with a session open. A receiver time
    /// before the session's last fix (beyond the clock tolerance), later than the same-trip
    /// stop allows, or a position no car could have reached since, is not the same drive going
    /// on (another MCU, or this one after days): the session ends at its last fix as
    /// `power_loss`, as a service restart ends it, and the continuity rules judge what follows.
    /// A position alone is not believed at once: a receiver's first fixes after a start, or one
    /// multipath epoch, can be hundreds of metres off, so the fixes that follow are judged too
    /// (and kept from the trip) until one is reachable or `implausibleFixWindowMs` has passed.
    mutating func judgeAcrossRestart(
        _ open: ContinuityJudge.OpenAcrossRestart, fixUTCMs: Int64, fix: GNSSFix, at time: LinkMilliseconds, offsetMs: Int64,
        _ emit: (DomainOutput) -> Void
    ) {
        continuity.openAcrossRestart = nil
        guard machine.driver == open.driver, machine.startedAt == open.startedAt else { return }
        let rules = configuration.continuity
        let gapMs = fixUTCMs - open.lastFixUTCMs
        var reachable = true
        if let latitude = fix.latitude, let longitude = fix.longitude {
            reachable = continuity.couldCover(
                Geodesy.distance(latitude1: open.latitude, longitude1: open.longitude, latitude2: latitude, longitude2: longitude),
                inMs: gapMs)
        }
        let backwards = gapMs < -rules.clockToleranceMs
        guard backwards || !reachable || gapMs > rules.sameTripMaxStopMs else { return }
        if !backwards && gapMs <= rules.sameTripMaxStopMs {
            // Only the position says so: wait for the receiver to agree with itself.
            var waiting = open
            if continuity.waitsOutImplausibleFix(since: &waiting.implausibleSince, at: time) {
                continuity.openAcrossRestart = waiting
                return
            }
        }
        // Stamped through the new anchor, this link time is the last fix's UTC.
        endingAtLastFix = (LinkMilliseconds(open.lastFixUTCMs - offsetMs), open.lastFixAt)
        var signals = SignalBuffer()
        machine.endSession(.powerLoss, at: now) { signals.append($0) }
        for index in 0..<signals.count {
            // Nobody tapped or left: the new MCU plays no end-of-session pattern.
            if case .feedback = signals[index] { continue }
            forward(signals[index], emit)
        }
        endingAtLastFix = nil
        let metrics = trip.metrics
        // The path between the last fix and this one is unknown: no straight line is added.
        motion.forgetPosition()
        guard !backwards && reachable else { return }
        // Judged afresh, on the receiver's time: a new session for the driver within the new-trip
        // stop, with their beacon aboard; untracked otherwise.
        continuity.wait(for: ContinuationCandidate(
            driver: open.driver, origin: .restart, startedAt: nil, stopBeganAt: nil, startUTCMs: open.startUTCMs,
            stopBeganUTCMs: open.lastFixUTCMs, standingSinceUTCMs: nil, metrics: metrics, latitude: open.latitude,
            longitude: open.longitude, lastSpeed: .zero, sessionOpen: false, bridge: nil))
    }

    /// A motion step while a continuation waits: measures a restart's gap at the first fix,
    /// and starts the decision when the car moves off.
    mutating func considerContinuation(_ step: MotionStep, _ emit: (DomainOutput) -> Void) {
        guard var waiting = resolvedCandidate(), let stop = waiting.stopBeganAt else { return }
        if waiting.origin == .restart && waiting.sessionOpen && waiting.bridge == nil {
            // The first fix after the restart: the trip can go on only if the receiver's time
            // and position say it could be the same one. One fix is not believed at once: a
            // receiver's first fixes after a start, or one multipath epoch, can be hundreds of
            // metres (or seconds) off, so the trip waits for the fixes that follow
            // (`implausibleFixWindowMs`) before it is dropped.
            let gapMs = step.time.value - stop.value
            var chord: Meters?
            if let latitude = waiting.latitude, let longitude = waiting.longitude {
                chord = Geodesy.distance(latitude1: latitude, longitude1: longitude, latitude2: step.latitude, longitude2: step.longitude)
            }
            guard gapMs >= -configuration.continuity.clockToleranceMs, chord.map({ continuity.couldCover($0, inMs: gapMs) }) ?? true else {
                let waitingOut = continuity.waitsOutImplausibleFix(since: &waiting.implausibleFixSince, at: step.time)
                continuity.candidate = waiting
                if !waitingOut { dropCandidate(at: step.time, emit) }
                return
            }
            var bridge = TripMetrics()
            if let chord {
                if chord.value > configuration.motion.jitterRadiusMeters {
                    // The car covered at least the straight line while nothing was recorded,
                    // at the trip's own consumption so far.
                    bridge.distance = chord
                    let perMeter = waiting.metrics.distance.value > 100 ? waiting.metrics.fuel.value / waiting.metrics.distance.value : 0
                    bridge.fuel = Liters(chord.value * perMeter)
                    bridge.movingMs = max(0, gapMs)
                }
            }
            waiting.bridge = bridge
        }
        continuity.candidate = waiting
        // The gated speed: GNSS wander in a parked car is not moving off. A straight line bridged
        // across an outage is: the car was somewhere else when the receiver saw it again.
        let moving = step.speed.value >= configuration.session.stoppedBelowMetersPerSecond || step.bridgesAnOutage
        if waiting.origin == .restart && waiting.sessionOpen && continuity.moveOff == nil {
            continuity.candidate?.standing(moving: moving, afterGap: step.afterGap, at: step.time)
        }
        if continuity.moveOff != nil {
            // False: a moment of speed noise, not a drive; the trip waits for the real one.
            guard continuity.stepWhileDeciding(meters: step.distance.value, moving: moving, at: step.time) else { return }
        } else {
            guard moving || backBeforeTheTripCouldEnd(waiting, at: step.time) else { return }
            continuity.startDeciding(
                at: step.time, movedOffAt: step.bridgesAnOutage ? lastMotionStepAt ?? step.time : step.time, meters: step.distance.value)
        }
        decideContinuation(at: step.time, emit)
    }

    /// Any event while no session runs: a restart's stored times are mapped once UTC is
    /// known, a waiting decision is taken, an old candidate expires.
    mutating func evaluateContinuation(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard var waiting = resolvedCandidate(), let stop = waiting.stopBeganAt else { return }
        if continuity.moveOff != nil {
            decideContinuation(at: time, emit)
            return
        }
        let standingMs = time.value - stop.value
        if waiting.sessionOpen && standingMs > configuration.continuity.sameTripMaxStopMs {
            // Too long for the same trip: the interrupted session ends where it was left.
            emit(.interruptedTripEnded(at: time))
            waiting.sessionOpen = false
            continuity.candidate = waiting
        }
        if standingMs > configuration.continuity.newTripMaxStopMs {
            continuity.candidate = nil
        }
    }

    /// The candidate with its stored times mapped onto this run's link time (nil while UTC is
    /// unknown). At the first mapping the engine's warmth is known too: as warm as the trip
    /// made it, cooled for as long as the car has stood since (`FuelEstimator.warmUp`).
    mutating func resolvedCandidate() -> ContinuationCandidate? {
        guard var waiting = continuity.candidate else { return nil }
        let wasMapped = waiting.stopBeganAt != nil
        guard waiting.resolve(with: utc), let stop = waiting.stopBeganAt else { return nil }
        continuity.candidate = waiting
        if !wasMapped, let start = waiting.startedAt {
            warmthToSet = (drivenMs: stop.value - start.value, stoppedAt: stop)
        }
        return waiting
    }

    /// The car moves without a tap: the last driver's trip goes on when their beacon is in
    /// the car; without it within the decision window, the driving stays untracked.
    mutating func decideContinuation(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard let waiting = continuity.candidate, let stop = waiting.stopBeganAt, let moveOff = continuity.moveOff else { return }
        let parkedMs = moveOff.movedOffAt.value - stop.value
        let evidence: Bool
        if directory.hasBeacon(waiting.driver) {
            evidence = presence.isPresent(driver: waiting.driver, at: time)
        } else {
            // Nothing says who is back, except a restart too short for the trip to have ended.
            evidence = waiting.origin == .restart && waiting.sessionOpen && parkedMs <= configuration.session.stoppedMs
        }
        switch continuity.verdict(parkedMs: parkedMs, evidence: evidence, at: time) {
        case .wait: break
        case let .resume(continuing): resumeCandidate(continuing: continuing, at: time, emit)
        case .drop: dropCandidate(at: time, emit)
        }
    }

    /// A restart's open trip with the car standing: back within the stand-still the departure
    /// rule needs, with the driver aboard (their beacon heard, or no beacon to hear), the
    /// uninterrupted service would still be running this trip, so it goes on now, and the
    /// departure rule ends it as it would have, with what was driven while the service was
    /// down (a tunnel, a restart just before parking) in it.
    func backBeforeTheTripCouldEnd(_ waiting: ContinuationCandidate, at time: LinkMilliseconds) -> Bool {
        guard waiting.origin == .restart, waiting.sessionOpen, waiting.bridge != nil, let stop = waiting.stopBeganAt,
            time.value - stop.value <= configuration.session.stoppedMs
        else { return false }
        return directory.hasBeacon(waiting.driver) ? presence.isPresent(driver: waiting.driver, at: time) : true
    }

    /// Puts the candidate's driver back in a session: the same one (`continuing`) or a new one.
    mutating func resumeCandidate(continuing: Bool, at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard let waiting = continuity.candidate else { return }
        let movedOff = continuity.moveOff?.movedOffAt ?? time
        // What was driven since moving off belongs to the trip.
        var absorbed = TripMetrics()
        if let chunk = untracked {
            absorbed.distance = chunk.distance
            absorbed.fuel = chunk.fuel
        }
        absorbed.movingMs = max(0, time.value - movedOff.value)
        untracked = nil
        continuity.clear()
        continuity.refusedDriver = nil
        if waiting.sessionOpen && !continuing { emit(.interruptedTripEnded(at: time)) }
        var meter = trip
        let startedAt: LinkMilliseconds
        if continuing {
            startedAt = waiting.startedAt ?? movedOff
            meter.resume(waiting.metrics, startedAt: startedAt, at: time)
            if let bridge = waiting.bridge { meter.absorb(bridge) }
            if waiting.origin == .restart && waiting.sessionOpen, let stop = waiting.stopBeganAt {
                // The car stood across the restart (a light, a queue, a fuel stop): idle, as the live
                // meter counts a stop, but no longer than the departure rule's wait, after which
                // the uninterrupted service would have ended the session and counted the rest in
                // the duration only.
                let stoodBeforeMs = waiting.standingSince.map { max(0, stop.value - $0.value) } ?? 0
                let waitMs = configuration.session.stoppedMs + configuration.session.cooldownMs
                var stood = TripMetrics()
                stood.idleMs = min(waiting.standingMs, max(0, waitMs - stoodBeforeMs))
                meter.absorb(stood)
            }
        } else {
            startedAt = movedOff
            meter.resume(TripMetrics(), startedAt: startedAt, at: time)
        }
        // What the trip had measured when the car moved off: the store keeps it, and reads the track after it.
        let measured = meter.metrics
        meter.absorb(absorbed)
        meter.absorb(waiting.held)
        trip = meter
        machine.resume(driver: waiting.driver, startedAt: startedAt)
        sessionFuelStart = fuelTotal
        lastTripPointAt = nil
        emit(.transition(from: .idle, to: .active, at: time))
        emit(.sessionResumed(SessionResumption(
            driver: waiting.driver, startedAt: startedAt, at: time, continuing: continuing, origin: waiting.origin,
            movedOffAt: movedOff, measured: measured)))
        emit(.feedback(.sessionStarted))
    }

    /// The candidate's trip will not go on: an interrupted session ends where it was left,
    /// and its driver stays a candidate for the untracked drive that follows.
    mutating func dropCandidate(at time: LinkMilliseconds, _ emit: (DomainOutput) -> Void) {
        guard let waiting = continuity.candidate else { return }
        if waiting.sessionOpen { emit(.interruptedTripEnded(at: time)) }
        if continuity.moveOff != nil {
            continuity.refusedDriver = waiting.driver
            if untracked != nil { untracked!.candidates.insert(waiting.driver) }
        }
        continuity.clear()
    }

    /// Adds the drivers whose fobs are in the car now.
    func noteFobsAboard(in candidates: inout DriverCandidates, at time: LinkMilliseconds) {
        for driver in directory.drivers where !candidates.contains(driver.id) {
            if presence.isPresent(driver: driver.id, at: time) { candidates.insert(driver.id) }
        }
    }
}
