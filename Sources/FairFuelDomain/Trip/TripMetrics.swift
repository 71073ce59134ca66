import FairFuelCore

/// What one trip (a session, or a stretch of untracked driving) measured.
public struct TripMetrics: Sendable, Equatable {
    public var distance: Meters = .zero
    public var durationMs: Int64 = 0
    public var movingMs: Int64 = 0
    /// Time with speed under the stopped threshold (1 m/s).
    public var idleMs: Int64 = 0
    public var maximumSpeed: MetersPerSecond = .zero
    public var harshAccelerations = 0
    public var harshBrakings = 0
    /// Estimated fuel.
    public var fuel: Liters = .zero

    public init() {}

    /// Distance over moving time; zero when the vehicle never moved.
    public var averageMovingSpeed: MetersPerSecond {
        movingMs > 0 ? MetersPerSecond(distance.value / (Double(movingMs) / 1000)) : .zero
    }
}
