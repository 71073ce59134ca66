import FairFuelCore

/// Fuel as a constant per kilometre: the original placeholder, kept only as the
/// baseline the speed-trace model is validated against.
///
/// It cannot tell a gentle highway run from stop-and-go city driving of the same
/// length, which is exactly what a fair split between drivers needs.
public struct DistanceOnlyFuelEstimator: Sendable {
    public let litersPer100Kilometers: Double
    /// Gaps up to this are bridged (mean of the speeds either side); longer ones count nothing.
    public let maxBridgedGapMs: Int64
    public var calibrationFactor: Double
    public private(set) var distance = Meters.zero
    private var lastSampleMs: Int64?
    private var lastSpeed = 0.0

    public init(litersPer100Kilometers: Double, calibrationFactor: Double = 1, maxBridgedGapMs: Int64 = 600_000) {
        self.litersPer100Kilometers = litersPer100Kilometers
        self.calibrationFactor = calibrationFactor
        self.maxBridgedGapMs = maxBridgedGapMs
    }

    /// Fuel so far, calibrated.
    public var liters: Liters { Liters(distance.kilometers * litersPer100Kilometers / 100 * calibrationFactor) }

    /// Adds one sample and returns the calibrated fuel so far.
    @discardableResult
    public mutating func add(timeMs: Int64, speed: MetersPerSecond) -> Liters {
        let v = speed.value
        guard v.isFinite else { return liters }
        if let last = lastSampleMs {
            guard timeMs > last else { return liters }
            if timeMs - last <= maxBridgedGapMs {
                distance.value += (max(0, v) + lastSpeed) / 2 * Double(timeMs - last) / 1_000
            }
        }
        lastSampleMs = timeMs
        lastSpeed = max(0, v)
        return liters
    }

    /// The engine stopped: the next sample starts a new stream.
    public mutating func pause() {
        lastSampleMs = nil
    }

    /// Forgets everything counted.
    public mutating func reset() {
        distance = .zero
        lastSampleMs = nil
    }
}
