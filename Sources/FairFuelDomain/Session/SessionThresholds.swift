/// When sessions end and what counts as moving; per vehicle, with the design's defaults.
public struct SessionThresholds: Sendable, Equatable {
    /// The session driver's beacon must be absent this long before the session may stop.
    public var beaconAbsentMs: Int64 = 90_000
    /// Smoothed RSSI at or below this counts as absent (a fob outside the car).
    public var absentRSSIDBm: Int = -90
    /// Smoothed RSSI must reach this to count as present again (hysteresis above `absentRSSIDBm`).
    public var presentRSSIDBm: Int = -85
    /// The vehicle must stand still this long before the session may stop.
    public var stoppedMs: Int64 = 180_000
    /// Below this speed the vehicle counts as stopped.
    public var stoppedBelowMetersPerSecond: Double = 1.0
    /// Cooldown in STOPPING during which the driver may come back.
    public var cooldownMs: Int64 = 10_000
    /// For a driver without a beacon and a car without ignition sense: the stop that ends the session.
    public var noBeaconStopMs: Int64 = 600_000
    /// Without any valid fix for this long, the vehicle counts as stopped since its last fix
    /// (a parked car in an underground garage has no sky).
    public var gnssLostAssumeStoppedMs: Int64 = 600_000

    public init() {}
}

/// What counts as harsh driving and which fixes are trusted.
public struct MotionThresholds: Sendable, Equatable {
    /// Speed change beyond this per second is harsh (acceleration or braking).
    public var harshMetersPerSecondSquared: Double = 2.2
    /// Harsh events count only above this speed (10 km/h), so walking-pace noise does not.
    public var harshMinimumMetersPerSecond: Double = 10.0 / 3.6
    /// A harsh change must last at least this long to count.
    public var harshMinimumDurationMs: Int64 = 500
    /// Fixes with a worse HDOP are not trusted for motion.
    public var maximumHDOP: Double = 5.0
    /// Speeds above this (about 194 km/h) are outliers.
    public var maximumMetersPerSecond: Double = 54.0
    /// Below this GNSS speed, distance accrues only when the position leaves the jitter radius.
    public var jitterSpeedMetersPerSecond: Double = 2.0
    /// Radius within which a slow or stationary position is treated as noise.
    public var jitterRadiusMeters: Double = 8.0

    public init() {}
}
