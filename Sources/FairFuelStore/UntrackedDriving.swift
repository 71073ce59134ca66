import FairFuelCore

/// Driving nobody had tapped in for, as stored: no positions, only its span and totals.
public struct UntrackedDriving: Sendable, Equatable {
    public var id: Int64
    public var fromUTCMs: Int64
    public var toUTCMs: Int64
    public var distanceMeters: Double
    public var fuelLiters: Double
    /// Who may have driven it (continuity rules: the last driver, fobs aboard); never a decision.
    public var candidates: [DriverID] = []
}
