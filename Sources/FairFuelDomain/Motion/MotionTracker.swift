import FairFuelCore
import FairFuelParsers

/// One accepted step of motion between two trusted fixes.
public struct MotionStep: Sendable, Equatable {
    public var time: LinkMilliseconds
    /// Time since the previous accepted fix (0 for the first).
    public var elapsedMs: Int64
    /// Distance this step adds (0 while within the jitter radius).
    public var distance: Meters
    /// Speed at this fix (receiver speed, gated; 0 below the stopped threshold).
    public var speed: MetersPerSecond
    /// Speed as the receiver reported it, ungated: for dynamics (harsh events), where the
    /// gate's jump from 0 to 2 m/s would read as an acceleration.
    public var receiverSpeed: MetersPerSecond
    public var latitude: Double
    public var longitude: Double
    /// True when the step follows a gap (first fix, GNSS outage, re-anchoring) or a break in
    /// the receiver's speed trace (an untrusted epoch, its clock stepping); after an outage
    /// `distance` is the straight line across it when the speeds either side explain it.
    public var afterGap: Bool
    /// Time for speed changes (harsh events): the receiver's own epoch times where it gives
    /// them consistently, link time otherwise. Only differences within a run of steps
    /// without a gap mean anything.
    public var dynamicsMs: Int64
    /// The speed trace starts again here, for harsh events only: this step's speed is not
    /// comparable with the previous one's (one is the receiver's, the other derived from
    /// positions: an epoch that lost its RMC), or an epoch is missing between them (a frame
    /// lost on the line). No acceleration is measured across it; the step is a reference for
    /// the next. Time and distance are counted as for any step.
    public var restartsDynamics = false

    /// The straight line across a GNSS outage: the car was somewhere else when the receiver saw it again.
    public var bridgesAnOutage: Bool { afterGap && distance.value > 0 }
}

/// Turns GNSS fixes into trusted motion: gated by fix mode and HDOP, with
/// outliers rejected and stationary jitter kept out of the distance.
public struct MotionTracker: Sendable {
    public let thresholds: MotionThresholds
    public let sessionThresholds: SessionThresholds
    /// Fixes further apart than this start a new segment: distance across it is the straight
    /// line, when plausible (a tunnel), never a guess from speed.
    public let gapMs: Int64

    public private(set) var lastAccepted: MotionStep?
    /// Since when the vehicle has stood still; nil while moving or unknown.
    public private(set) var stoppedSince: LinkMilliseconds?
    public private(set) var rejectedGateCount: UInt64 = 0
    public private(set) var rejectedOutlierCount: UInt64 = 0
    private var consecutiveOutliers = 0
    /// The receiver's UTC of the last accepted fix (nil: it gave none).
    private var lastReceiverMs: Int64?
    /// An epoch was refused by the gates since the last accepted one: the speed trace broke.
    private var untrustedSinceLastAccepted = false
    /// Whether the last accepted fix's speed was the receiver's own (RMC, VTG), not derived
    /// from positions.
    private var lastSpeedIsReceivers = false
    /// The receiver's epoch interval as seen (its shortest recent step), for missing epochs;
    /// `lastReceiverElapsedMs` lets a receiver that lowers its rate be followed.
    private var epochIntervalMs: Int64?
    private var lastReceiverElapsedMs: Int64?
    // The jitter anchor: where a slow or stationary vehicle was last placed.
    private var anchorLatitude = 0.0
    private var anchorLongitude = 0.0

    public init(thresholds: MotionThresholds, sessionThresholds: SessionThresholds, gapMs: Int64 = 5_000) {
        self.thresholds = thresholds
        self.sessionThresholds = sessionThresholds
        self.gapMs = gapMs
    }

    /// Whether the vehicle counts as stopped at `now` for at least `durationMs`.
    public func hasBeenStopped(forMs durationMs: Int64, at now: LinkMilliseconds) -> Bool {
        if let since = stoppedSince { return now.value - since.value >= durationMs }
        // No sky for a long time: a parked car in a garage. Stopped since its last fix.
        if let last = lastAccepted, now.value - last.time.value >= sessionThresholds.gnssLostAssumeStoppedMs {
            return now.value - last.time.value >= durationMs
        }
        return false
    }

    /// The moment the current stop began, for reports (the assumed one after a long GNSS loss).
    public func stopBegan(at now: LinkMilliseconds) -> LinkMilliseconds? {
        if let since = stoppedSince { return since }
        if let last = lastAccepted, now.value - last.time.value >= sessionThresholds.gnssLostAssumeStoppedMs {
            return last.time
        }
        return nil
    }

    /// Forgets where the vehicle was (a receiver whose time jumped: another MCU, or days later):
    /// the next fix starts a new segment with no straight line from the old position.
    public mutating func forgetPosition() {
        lastAccepted = nil
        lastReceiverMs = nil
        epochIntervalMs = nil
        lastReceiverElapsedMs = nil
        consecutiveOutliers = 0
    }

    /// The vehicle is known to be stationary from `time` (ignition off).
    public mutating func markStopped(at time: LinkMilliseconds) {
        if stoppedSince == nil { stoppedSince = time }
    }

    /// Considers one fix received at link time `time`; returns the step if the fix is trusted.
    public mutating func accept(_ fix: GNSSFix, at time: LinkMilliseconds) -> MotionStep? {
        guard fix.mode == .fix2D || fix.mode == .fix3D,
            let latitude = fix.latitude, let longitude = fix.longitude
        else {
            rejectedGateCount += 1
            untrustedSinceLastAccepted = true
            return nil
        }
        if let hdop = fix.hdop, hdop > thresholds.maximumHDOP {
            rejectedGateCount += 1
            untrustedSinceLastAccepted = true
            return nil
        }
        let receiverMs = fix.utc?.millisecondsSinceEpoch
        var speed = fix.speed?.value
        // A derived speed (an average over the last step) lags the receiver's (Doppler, now)
        // by half a step: mixed, the two read as an acceleration that never happened.
        let speedIsReceivers = speed != nil && !fix.motionIsDerived
        if let reported = speed, reported > thresholds.maximumMetersPerSecond || reported < 0 {
            rejectedOutlierCount += 1
            return nil
        }

        guard let previous = lastAccepted, time.value - previous.time.value <= gapMs, time > previous.time else {
            let bridged = lastAccepted.map { bridge(from: $0, latitude: latitude, longitude: longitude, speed: speed ?? 0, at: time) }
            return anchor(
                latitude: latitude, longitude: longitude, speed: speed ?? 0, at: time, afterGap: true, distance: bridged ?? .zero,
                receiverMs: receiverMs, speedIsReceivers: speedIsReceivers)
        }
        // Intervals on the receiver's clock where it has one: epochs that reach us late or
        // in a burst keep their true spacing. A receiver clock that repeats, runs back or
        // leaps (a restart, a leap second, a week rollover) breaks the trace instead.
        var elapsedMs = time.value - previous.time.value
        var traceBroken = untrustedSinceLastAccepted
        var restartsDynamics = speedIsReceivers != lastSpeedIsReceivers
        if let receiverMs, let lastReceiverMs {
            let receiverElapsed = receiverMs - lastReceiverMs
            if receiverElapsed > 0 && receiverElapsed <= gapMs {
                elapsedMs = receiverElapsed
                if isMissingEpochs(receiverElapsed) { restartsDynamics = true }
            } else {
                traceBroken = true
            }
        } else if (receiverMs == nil) != (lastReceiverMs == nil) {
            traceBroken = true
        }
        let seconds = Double(elapsedMs) / 1000
        let moved = Geodesy.distance(
            latitude1: previous.latitude, longitude1: previous.longitude, latitude2: latitude, longitude2: longitude)
        // A position jump the speeds cannot explain is an outlier (multipath, a bad epoch).
        let plausibleSpeed = max(previous.speed.value, speed ?? 0, 5) * 2 + 10
        if moved.value > plausibleSpeed * seconds + 25 {
            rejectedOutlierCount += 1
            consecutiveOutliers += 1
            if consecutiveOutliers >= 3 {
                // The receiver insists: it was the old position that was wrong. Re-anchor without distance.
                consecutiveOutliers = 0
                return anchor(
                    latitude: latitude, longitude: longitude, speed: speed ?? 0, at: time, afterGap: true, receiverMs: receiverMs,
                    speedIsReceivers: speedIsReceivers)
            }
            return nil
        }
        consecutiveOutliers = 0
        if speed == nil { speed = moved.value / seconds }
        let reportedSpeed = speed!

        var distance = Meters.zero
        if reportedSpeed >= thresholds.jitterSpeedMetersPerSecond {
            distance = moved
            anchorLatitude = latitude
            anchorLongitude = longitude
        } else {
            // Slow or stationary: GNSS wanders; count only a real departure from the anchor.
            let fromAnchor = Geodesy.distance(
                latitude1: anchorLatitude, longitude1: anchorLongitude, latitude2: latitude, longitude2: longitude)
            if fromAnchor.value > thresholds.jitterRadiusMeters {
                distance = fromAnchor
                anchorLatitude = latitude
                anchorLongitude = longitude
            }
        }
        // Speed noise between 1 and 2 m/s without leaving the jitter radius is not movement.
        let isStopped = reportedSpeed < sessionThresholds.stoppedBelowMetersPerSecond
            || (reportedSpeed < thresholds.jitterSpeedMetersPerSecond && distance == .zero)
        updateStopped(isStopped, at: time)
        let step = MotionStep(
            time: time, elapsedMs: elapsedMs, distance: distance,
            speed: MetersPerSecond(isStopped ? 0 : reportedSpeed), receiverSpeed: MetersPerSecond(reportedSpeed),
            latitude: latitude, longitude: longitude, afterGap: traceBroken, dynamicsMs: previous.dynamicsMs + elapsedMs,
            restartsDynamics: restartsDynamics)
        lastAccepted = step
        lastReceiverMs = receiverMs
        lastSpeedIsReceivers = speedIsReceivers
        untrustedSinceLastAccepted = false
        return step
    }

    /// Whether a step of `receiverElapsed` on the receiver's clock skips an epoch or more: longer
    /// than one and a half of its interval. The interval is the shortest step seen, or a longer
    /// one seen twice in a row (the receiver lowered its rate).
    private mutating func isMissingEpochs(_ receiverElapsed: Int64) -> Bool {
        defer { lastReceiverElapsedMs = receiverElapsed }
        guard let interval = epochIntervalMs, receiverElapsed > interval else {
            epochIntervalMs = receiverElapsed
            return false
        }
        if receiverElapsed == lastReceiverElapsedMs {
            epochIntervalMs = receiverElapsed
            return false
        }
        return receiverElapsed * 2 > interval * 3
    }

    private mutating func anchor(
        latitude: Double, longitude: Double, speed: Double, at time: LinkMilliseconds, afterGap: Bool, distance: Meters = .zero,
        receiverMs: Int64?, speedIsReceivers: Bool
    ) -> MotionStep {
        anchorLatitude = latitude
        anchorLongitude = longitude
        // With no previous position to compare, slow speeds are taken as the noise they usually are.
        let isStopped = speed < thresholds.jitterSpeedMetersPerSecond
        updateStopped(isStopped, at: time)
        // After a gap the dynamics clock only has to keep running forward.
        let dynamicsMs = lastAccepted.map { $0.dynamicsMs + max(1, time.value - $0.time.value) } ?? time.value
        let step = MotionStep(
            time: time, elapsedMs: 0, distance: distance, speed: MetersPerSecond(isStopped ? 0 : speed),
            receiverSpeed: MetersPerSecond(speed), latitude: latitude, longitude: longitude, afterGap: afterGap,
            dynamicsMs: dynamicsMs)
        lastAccepted = step
        lastReceiverMs = receiverMs
        lastSpeedIsReceivers = speedIsReceivers
        lastReceiverElapsedMs = nil
        untrustedSinceLastAccepted = false
        return step
    }

    /// The straight line across a GNSS outage (a tunnel): zero when it is within the jitter
    /// radius, longer than the speeds either side explain, or the outage so long that the
    /// car counts as parked.
    private func bridge(from previous: MotionStep, latitude: Double, longitude: Double, speed: Double, at time: LinkMilliseconds)
        -> Meters
    {
        let elapsedMs = time.value - previous.time.value
        guard elapsedMs > 0, elapsedMs < sessionThresholds.gnssLostAssumeStoppedMs else { return .zero }
        let chord = Geodesy.distance(
            latitude1: previous.latitude, longitude1: previous.longitude, latitude2: latitude, longitude2: longitude)
        let plausibleSpeed = max(previous.speed.value, speed, 5) * 2 + 10
        guard chord.value > thresholds.jitterRadiusMeters, chord.value <= plausibleSpeed * Double(elapsedMs) / 1000 + 25 else {
            return .zero
        }
        return chord
    }

    private mutating func updateStopped(_ isStopped: Bool, at time: LinkMilliseconds) {
        if isStopped {
            if stoppedSince == nil { stoppedSince = time }
        } else {
            stoppedSince = nil
        }
    }
}
