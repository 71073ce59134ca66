import FairFuelCore

/// One full-to-full period of the car's life: what the pump put in at the later full fill
/// (and every partial fill between), and the uncalibrated model litres each party burnt in it.
/// A partial fill alone measures nothing (the level before and after is unknown).
public struct ConsumptionPeriod: Sendable, Equatable {
    /// The litres pumped after the earlier full fill, up to and including the later one.
    public var pumpedLiters: Double
    /// Each party's model litres in the period, before any calibration; nil is untracked driving.
    public var modelLiters: [DriverID?: Double]

    public init(pumpedLiters: Double, modelLiters: [DriverID?: Double]) {
        self.pumpedLiters = pumpedLiters
        self.modelLiters = modelLiters
    }

    public var totalModelLiters: Double { modelLiters.values.reduce(0, +) }
}
