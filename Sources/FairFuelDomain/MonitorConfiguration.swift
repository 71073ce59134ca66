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
    /// When a drive without a tap goes on as the last driver's trip.
    public var continuity = ContinuityThresholds()

    public init() {}
}
