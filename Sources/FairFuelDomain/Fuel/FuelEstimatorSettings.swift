import FairFuelCore

/// How `FuelEstimator` cleans a GNSS speed stream and spreads cold-start fuel.
public struct FuelEstimatorSettings: Sendable, Equatable {
    /// Samples are averaged over blocks of this length before differentiating.
    ///
    /// At 10 Hz a block holds ten samples, so speed noise shrinks by √10 before it
    /// becomes acceleration; at 1 Hz a block is one sample and the model sees the raw trace.
    public var blockMs: Int64 = 1_000
    /// Gaps up to this (a tunnel) are bridged by a straight speed ramp; longer ones break the stream.
    public var maxBridgedGapMs: Int64 = 600_000
    /// Mean accelerations beyond this are GNSS errors and are clamped, m/s².
    public var maxAccelerationMetersPerSecondSquared = 5.0
    /// Mean decelerations beyond this are clamped, m/s² (positive).
    public var maxDecelerationMetersPerSecondSquared = 10.0
    /// Faster samples are receiver errors and are skipped.
    public var maxSpeed = MetersPerSecond(90)
    /// Grades are clamped to ± this, rise over run.
    public var maxGrade = 0.3
    /// A cold engine's extra fuel is spread evenly over this much running time.
    public var warmUpMs: Int64 = 300_000
    /// How fast a stopped engine cools: after a stop of length t the next start is
    /// 1 − e^(−t/τ) of a fully cold one (an assumption, not validated: docs/fuel-model.md).
    public var coolingTimeConstantMs: Int64 = 7_200_000

    public init() {}
}
