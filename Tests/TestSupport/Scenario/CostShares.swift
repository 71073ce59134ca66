import FairFuelCore
import FairFuelDomain

/// Bills split by party, and how far one split is from another.
public enum CostShares {
    public typealias Split = [Party: Int64]

    /// Each refuel's bill split by the true litres of its period (the fair split).
    public static func truth(_ truth: ScenarioTruth) -> [Split] {
        split(truth) { $0.liters }
    }

    /// Each refuel's bill split by true distance (a distance-only estimator with perfect sessions).
    public static func distanceOnly(_ truth: ScenarioTruth) -> [Split] {
        split(truth) { $0.meters }
    }

    /// Each refuel's bill split by FairFuel's model on the true speeds (needs `ScenarioOptions.referenceModel`).
    public static func modelOnly(_ truth: ScenarioTruth) -> [Split] {
        split(truth) { $0.modelLiters }
    }

    /// Misallocated money over the money billed: Σ over refuels and parties of
    /// |assigned − true| / 2, divided by Σ bills.
    public static func misallocation(_ assigned: [Split], truth: [Split]) -> Double {
        precondition(assigned.count == truth.count, "one split per refuel on both sides")
        var wrong: Int64 = 0
        var billed: Int64 = 0
        for (a, t) in zip(assigned, truth) {
            billed += t.values.reduce(0, +)
            for party in Set(a.keys).union(t.keys) { wrong += abs((a[party] ?? 0) - (t[party] ?? 0)) }
        }
        return billed == 0 ? 0 : Double(wrong) / 2 / Double(billed)
    }

    private static func split(_ truth: ScenarioTruth, by weight: (ScenarioTruth.Period) -> [Party: Double]) -> [Split] {
        truth.periods.compactMap { period in
            guard let refuel = period.refuel else { return nil }
            let shares = weight(period).map { party, amount in
                FuelShare(driver: party.driverID, fuel: Liters(amount))
            }
            var result: Split = [:]
            for share in CostSplitter.split(bill: refuel.cost, fuel: shares, untracked: .owner) {
                result[Party(share.driver), default: 0] += share.cost.value
            }
            return result
        }
    }
}
