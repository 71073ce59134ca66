import FairFuelCore

/// Accumulates trip metrics from motion steps: distance, moving and idle time,
/// top speed and harsh events.
///
/// Harsh events use the speed change over at least `harshMinimumDurationMs`
/// (not sample to sample), so 10 Hz GNSS noise does not fire them; one event
/// is counted per run of harsh change, however many samples it spans.
public struct TripMeter: Sendable {
    public let thresholds: MotionThresholds
    public let stoppedBelowMetersPerSecond: Double
    public private(set) var metrics = TripMetrics()
    public private(set) var startTime: LinkMilliseconds?
    private var lastTime: LinkMilliseconds?
    private var lastSpeed = 0.0
    private var recent: FixedRing<SpeedSample>
    private var accelerationRun = false
    private var brakingRun = false

    struct SpeedSample: Sendable {
        var timeMs: Int64
        var speed: Double
    }

    public init(thresholds: MotionThresholds, stoppedBelowMetersPerSecond: Double, speedHistoryCapacity: Int = 32) {
        self.thresholds = thresholds
        self.stoppedBelowMetersPerSecond = stoppedBelowMetersPerSecond
        recent = FixedRing(capacity: speedHistoryCapacity)
    }

    /// Speed samples held for harsh events; never more than `speedHistoryCapacity`.
    public var speedHistoryCount: Int { recent.count }
    public var speedHistoryCapacity: Int { recent.capacity }

    /// Starts a new trip at `time`, forgetting the previous one.
    public mutating func start(at time: LinkMilliseconds) {
        metrics = TripMetrics()
        startTime = time
        lastTime = time
        lastSpeed = 0
        recent.removeAll()
        accelerationRun = false
        brakingRun = false
    }

    /// Goes on with a trip measured before (a reopened session): `metrics` so far, started at
    /// `startedAt`, taken up again at `time`. The time in between counts in the duration only.
    /// `movingOff`: the car is under way at `time`, so the time to the next step is moving time.
    public mutating func resume(_ metrics: TripMetrics, startedAt: LinkMilliseconds, at time: LinkMilliseconds, movingOff: Bool = false) {
        self.metrics = metrics
        startTime = startedAt
        lastTime = time
        lastSpeed = movingOff ? stoppedBelowMetersPerSecond : 0
        recent.removeAll()
        accelerationRun = false
        brakingRun = false
        advance(to: time)
    }

    /// Adds driving measured while the trip's driver was not yet known (moving time, distance
    /// and fuel of a stretch taken back into the trip, or the straight line across a restart).
    public mutating func absorb(_ other: TripMetrics) {
        metrics.distance += other.distance
        metrics.fuel += other.fuel
        metrics.movingMs += other.movingMs
        metrics.idleMs += other.idleMs
        if other.maximumSpeed > metrics.maximumSpeed { metrics.maximumSpeed = other.maximumSpeed }
        metrics.harshAccelerations += other.harshAccelerations
        metrics.harshBrakings += other.harshBrakings
    }

    /// What a stored track measured, read back point by point through a meter (after a
    /// restart): distance and fuel from its running totals, times, top speed and harsh events
    /// from its speeds. Points further apart than `gapMs` are a gap (a tunnel, a lost flush).
    /// Harsh events are read from 1 Hz gated speeds only between moving points: a lower
    /// bound of what the live meter counted, never a stop read as a harsh braking.
    ///
    /// `checkpoint`: the trip went on after a stop or a restart, and the store kept what it had
    /// measured when the car moved off; only the track from then on is read, so the stop before
    /// counts in the duration only, as the live meter counted it (`resume`).
    public static func metrics<S: Sequence>(
        of track: S, startUTCMs: Int64, thresholds: MotionThresholds, stoppedBelowMetersPerSecond: Double, gapMs: Int64 = 5_000,
        checkpoint: TripCheckpoint? = nil
    ) -> TripMetrics where S.Element == TrackSample {
        var meter = TripMeter(thresholds: thresholds, stoppedBelowMetersPerSecond: stoppedBelowMetersPerSecond)
        var previous: TrackSample?
        var fuel = Liters.zero
        // The running totals the track goes on from.
        var distanceBefore = Meters.zero
        var readFromUTCMs = Int64.min
        if let checkpoint {
            meter.resume(
                checkpoint.metrics, startedAt: LinkMilliseconds(startUTCMs), at: LinkMilliseconds(checkpoint.movedOffUTCMs),
                movingOff: true)
            fuel = checkpoint.metrics.fuel
            distanceBefore = checkpoint.metrics.distance
            readFromUTCMs = checkpoint.movedOffUTCMs
        } else {
            meter.start(at: LinkMilliseconds(startUTCMs))
        }
        for sample in track where sample.utcMs >= readFromUTCMs {
            let time = LinkMilliseconds(max(sample.utcMs, meter.lastTime?.value ?? sample.utcMs))
            let distance = Meters(max(0, sample.distance.value - (previous?.distance.value ?? distanceBefore.value)))
            // Stored speeds are gated (0 when the car counted as stopped): a step to or from a
            // gated 0 is the gate, not an acceleration, and breaks the trace for harsh events.
            let gated = sample.speed.value < thresholds.jitterSpeedMetersPerSecond
                || (previous?.speed.value ?? 0) < thresholds.jitterSpeedMetersPerSecond
            let afterGap = previous.map { sample.utcMs - $0.utcMs > gapMs } ?? true
            meter.add(MotionStep(
                time: time, elapsedMs: previous.map { max(0, sample.utcMs - $0.utcMs) } ?? 0, distance: distance,
                speed: sample.speed, receiverSpeed: sample.speed, latitude: 0, longitude: 0, afterGap: afterGap,
                dynamicsMs: sample.utcMs), breakingDynamics: gated)
            fuel = Liters(max(fuel.value, sample.fuel.value))
            previous = sample
        }
        var metrics = meter.metrics
        metrics.fuel = fuel
        return metrics
    }

    /// Adds one motion step; `breakingDynamics`: its speed says nothing about acceleration.
    public mutating func add(_ step: MotionStep, breakingDynamics: Bool = false) {
        guard let previousTime = lastTime else { return }
        let elapsed = max(0, step.time.value - previousTime.value)
        // Time since the last step counts by the state the vehicle was in; after a gap
        // (a tunnel), by the state on both sides.
        let wasMoving = lastSpeed >= stoppedBelowMetersPerSecond
        let isMoving = step.speed.value >= stoppedBelowMetersPerSecond
        if step.afterGap ? (wasMoving && isMoving) : wasMoving {
            metrics.movingMs += elapsed
        } else {
            metrics.idleMs += elapsed
        }
        metrics.distance += step.distance
        if step.speed > metrics.maximumSpeed { metrics.maximumSpeed = step.speed }
        if step.afterGap || breakingDynamics {
            // The first epoch after a gap or a break (a receiver restart often reports a stale
            // or zero speed) is no reference for the next: dynamics start again after it.
            recent.removeAll()
            accelerationRun = false
            brakingRun = false
        } else {
            if step.restartsDynamics {
                // Not comparable with what came before (another speed source, a missing epoch),
                // but a reference for what follows.
                recent.removeAll()
            }
            detectHarsh(timeMs: step.dynamicsMs, speed: step.receiverSpeed.value)
        }
        lastTime = step.time
        lastSpeed = step.speed.value
        metrics.durationMs = step.time.value - (startTime?.value ?? step.time.value)
    }

    /// Time passes without a fix (heartbeats): extends the duration and idle or moving time.
    public mutating func advance(to time: LinkMilliseconds) {
        guard let start = startTime else { return }
        metrics.durationMs = max(metrics.durationMs, time.value - start.value)
    }

    /// Adds fuel estimated elsewhere for this trip.
    public mutating func addFuel(_ liters: Liters) {
        metrics.fuel += liters
    }

    /// Ends the trip at `time` and returns its metrics.
    public mutating func finish(at time: LinkMilliseconds) -> TripMetrics {
        advance(to: time)
        let result = metrics
        startTime = nil
        lastTime = nil
        return result
    }

    /// Ends the trip at its last measured moment `time` (its last fix), whatever time passed
    /// since: the duration is what was measured up to it.
    public mutating func finish(measuredUntil time: LinkMilliseconds) -> TripMetrics {
        if let start = startTime { metrics.durationMs = max(0, time.value - start.value) }
        let result = metrics
        startTime = nil
        lastTime = nil
        return result
    }

    private mutating func detectHarsh(timeMs: Int64, speed: Double) {
        defer { recent.push(SpeedSample(timeMs: timeMs, speed: speed)) }
        // The newest sample at least the minimum duration older than this one.
        var reference: SpeedSample?
        var index = recent.count - 1
        while index >= 0 {
            let sample = recent[index]
            if timeMs - sample.timeMs >= thresholds.harshMinimumDurationMs {
                reference = sample
                break
            }
            index -= 1
        }
        guard let reference else { return }
        let seconds = Double(timeMs - reference.timeMs) / 1000
        let acceleration = (speed - reference.speed) / seconds
        let fastEnough = max(speed, reference.speed) > thresholds.harshMinimumMetersPerSecond
        let isAccelerating = fastEnough && acceleration > thresholds.harshMetersPerSecondSquared
        let isBraking = fastEnough && acceleration < -thresholds.harshMetersPerSecondSquared
        if isAccelerating && !accelerationRun { metrics.harshAccelerations += 1 }
        if isBraking && !brakingRun { metrics.harshBrakings += 1 }
        accelerationRun = isAccelerating
        brakingRun = isBraking
    }
}

/// What a trip had measured when it went on without a tap (after a stop or a restart), and
/// when the car moved off again: the stored track after that time measures the rest
/// (`TripMeter.metrics(of:...checkpoint:)`).
public struct TripCheckpoint: Sendable, Equatable {
    public var metrics: TripMetrics
    public var movedOffUTCMs: Int64

    public init(metrics: TripMetrics, movedOffUTCMs: Int64) {
        self.metrics = metrics
        self.movedOffUTCMs = movedOffUTCMs
    }
}
