import FairFuelCore

/// The split of a bill paid before the tank's level was known: the first full fill-up after
/// install, and any partial fill before it.
///
/// The litres pumped are the fuel burnt since the tank was last full; of that, the tracked
/// sessions and untracked driving since install burnt what the estimator says, and only the
/// rest was burnt before install. So each party pays their estimated fuel at the bill's price
/// per litre and the remainder is "before tracking". Where the estimates add up to more than
/// the litres pumped, every party's fuel is scaled down together (the whole bill is split in
/// proportion, nothing before tracking) and what the bill could not cover is `carried` to the
/// next such bill, so that a small partial fill neither bills a litre twice nor lets it go free.
public struct FirstFillSplit: Sendable, Equatable {
    /// Drivers and untracked driving, as `CostSplitter.split` gives them; `fuel` is the litres
    /// this bill charges each (their estimate, scaled down when the estimates exceed the pump).
    public var shares: [CostShare]
    /// Fuel burnt before tracking began: the litres pumped beyond the estimates, and their cost.
    public var beforeTrackingFuel: Liters
    public var beforeTrackingCost: MinorUnits
    /// Each party's estimated litres this bill did not cover (only when the estimates exceed the pump).
    public var carried: [FuelShare]

    /// Splits `bill` for `pumped` litres over the parties' estimated `fuel` since the previous fill
    /// (plus whatever an earlier such bill carried), untracked driving under `policy`.
    public init(bill: MinorUnits, pumped: Liters, fuel: [FuelShare], untracked policy: UntrackedPolicy) {
        let parties = fuel.filter { $0.fuel.value.isFinite && $0.fuel.value > 0 }
        // In party order, so the sum does not depend on the caller's dictionary order.
        let estimated = parties.sorted { ($0.driver?.rawValue ?? .max) < ($1.driver?.rawValue ?? .max) }
            .reduce(0.0) { $0 + $1.fuel.value }
        let pumpedLiters = pumped.value.isFinite ? max(0, pumped.value) : 0
        guard estimated > 0 else {
            shares = []
            beforeTrackingFuel = Liters(pumpedLiters)
            beforeTrackingCost = bill
            carried = []
            return
        }
        let partiesCost = Self.partiesCost(bill: bill, estimatedLiters: estimated, pumpedLiters: pumpedLiters)
        // Each party's fuel is weighed as estimated; the litres shown are those this bill pays for.
        let scale = estimated > pumpedLiters ? pumpedLiters / estimated : 1
        shares = CostSplitter.split(bill: partiesCost, fuel: parties, untracked: policy).map { share in
            CostShare(driver: share.driver, fuel: Liters(share.fuel.value * scale), cost: share.cost)
        }
        beforeTrackingFuel = Liters(max(0, pumpedLiters - estimated))
        beforeTrackingCost = MinorUnits(bill.value - partiesCost.value)
        carried = scale < 1 ? parties.map { FuelShare(driver: $0.driver, fuel: Liters($0.fuel.value * (1 - scale))) } : []
    }

    /// The parties' part of the bill: `bill` × estimated / pumped to the nearest minor unit (half up),
    /// all of it when the estimates reach the pump; litres weighed in whole microlitres, as
    /// `CostSplitter` weighs them, so money never goes through floating point.
    static func partiesCost(bill: MinorUnits, estimatedLiters: Double, pumpedLiters: Double) -> MinorUnits {
        let estimated = UInt64((estimatedLiters * 1_000_000).rounded())
        let pumped = UInt64((pumpedLiters * 1_000_000).rounded())
        guard estimated < pumped else { return bill }
        let (quotient, remainder) = pumped.dividingFullWidth(UInt64(bill.value).multipliedFullWidth(by: estimated))
        return MinorUnits(Int64(quotient) + (remainder >= pumped - remainder ? 1 : 0))
    }
}
