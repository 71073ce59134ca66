/// When a car that moves off without a tap is still the last driver's trip.
///
/// The rule (README, "Continuity"): after a departure end, or after a restart that
/// interrupted a session, the last driver's trip goes on without a tap when the car
/// moves off with that driver's beacon in it. A short stop keeps one trip; a longer
/// park starts a new session for them, marked as resumed; beyond that, or without
/// the beacon, the driving stays untracked with its candidates recorded.
public struct ContinuityThresholds: Sendable, Equatable {
    /// A stop up to this long (from the moment the car stood still) is part of the trip:
    /// the ended session is reopened. Covers a fuel stop with a kiosk queue, a school gate.
    public var sameTripMaxStopMs: Int64 = 1_200_000
    /// Up to this long, the drive on is a new session for the last driver (marked resumed).
    public var newTripMaxStopMs: Int64 = 10_800_000
    /// How long after moving off the last driver's beacon may still turn up.
    public var decisionWindowMs: Int64 = 30_000
    /// After a restart, receiver time may read this much before the last stored point
    /// (the stored point's own rounding, a receiver's clock step) and still be the same trip.
    public var clockToleranceMs: Int64 = 5_000
    /// After a restart, how long fixes may keep saying the car is somewhere (or somewhen) the
    /// trip could not have reached before the trip is dropped: a receiver's first fixes after
    /// a start, and a multipath epoch, can be hundreds of metres off; a few seconds later
    /// they agree with the road again.
    public var implausibleFixWindowMs: Int64 = 10_000

    public init() {}
}
