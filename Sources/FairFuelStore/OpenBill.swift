import FairFuelCore

/// The bill not yet paid: each party's fuel since the last refuel, split as the next refuel's bill will
/// split it (`TripStore.openBill`), at an estimated price until that refuel says what it cost.
public struct OpenBill: Sendable, Equatable {
    /// The last refuel (or baseline mark) the open bill counts from; nil before the first.
    public var sinceUTCMs: Int64?
    /// The latest moment the car's data reaches (its last trip's end, or the last refuel).
    public var untilUTCMs: Int64?
    /// The price per litre the costs are estimated at, in minor units: the last bill's (in the vehicle's
    /// currency); nil before one, when the shares' costs are 0.
    public var estimatedPricePerLiter: Double?
    /// Each party's fuel (weighted as the bill will weigh it) and estimated cost; untracked driving has no driver.
    public var shares: [RefuelSplit.Share]

    public init(sinceUTCMs: Int64?, untilUTCMs: Int64?, estimatedPricePerLiter: Double?, shares: [RefuelSplit.Share]) {
        self.sinceUTCMs = sinceUTCMs
        self.untilUTCMs = untilUTCMs
        self.estimatedPricePerLiter = estimatedPricePerLiter
        self.shares = shares
    }

    public var fuelLiters: Double { shares.reduce(0) { $0 + $1.fuelLiters } }
    public var estimatedCost: MinorUnits { MinorUnits(shares.reduce(0) { $0 + $1.cost.value }) }
}
