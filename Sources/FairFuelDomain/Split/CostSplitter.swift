import FairFuelCore

/// Who pays for fuel burnt while nobody had tapped in.
public enum UntrackedPolicy: String, Sendable, CaseIterable {
    /// Shared among the drivers in proportion to their own fuel.
    case proRata = "pro_rata"
    /// Left to the owner: shown as an untracked share.
    case owner
}

/// One party's fuel in a refuel period; `driver` nil is untracked driving.
public struct FuelShare: Sendable, Equatable {
    public var driver: DriverID?
    public var fuel: Liters
    public init(driver: DriverID?, fuel: Liters) {
        self.driver = driver
        self.fuel = fuel
    }
}

/// One party's part of a bill.
public struct CostShare: Sendable, Equatable {
    public var driver: DriverID?
    public var fuel: Liters
    public var cost: MinorUnits
    public init(driver: DriverID?, fuel: Liters, cost: MinorUnits) {
        self.driver = driver
        self.fuel = fuel
        self.cost = cost
    }
}

/// Splits a bill in proportion to fuel, in integer minor units that sum exactly to the bill.
///
/// Largest remainder (Hamilton) method: everyone gets the floor of their exact
/// quota, then the leftover units go one each to the largest remainders; ties
/// go to the lower driver id, untracked last. Fuel is weighed in whole
/// microlitres so that the result does not depend on floating-point order.
public enum CostSplitter {
    public static func split(bill: MinorUnits, fuel: [FuelShare], untracked policy: UntrackedPolicy) -> [CostShare] {
        precondition(bill.value >= 0, "a bill is never negative")
        // Merge duplicates and sort: driver ids ascending, untracked last.
        var merged: [FuelShare] = []
        for share in fuel {
            if let index = merged.firstIndex(where: { $0.driver == share.driver }) {
                merged[index].fuel += share.fuel
            } else {
                merged.append(share)
            }
        }
        merged.sort { order($0.driver) < order($1.driver) }

        let weights: [Int64] = merged.map { share in
            guard share.fuel.value.isFinite, share.fuel.value > 0 else { return 0 }
            if share.driver == nil && policy == .proRata { return 0 }
            return Int64((share.fuel.value * 1_000_000).rounded())
        }
        var total = weights.reduce(0, +)
        var payerWeights = weights
        if total == 0 {
            // Nobody's own fuel to weigh (no driving, or untracked only under pro rata):
            // the owner carries the bill as the untracked share.
            if !merged.contains(where: { $0.driver == nil }) { merged.append(FuelShare(driver: nil, fuel: .zero)) }
            payerWeights = merged.map { $0.driver == nil ? 1 : 0 }
            total = 1
        }

        var costs = [Int64](repeating: 0, count: merged.count)
        var remainders: [(remainder: UInt64, index: Int)] = []
        var assigned: Int64 = 0
        for (index, weight) in payerWeights.enumerated() {
            let product = UInt64(bill.value).multipliedFullWidth(by: UInt64(weight))
            let (quotient, remainder) = UInt64(total).dividingFullWidth(product)
            costs[index] = Int64(quotient)
            assigned += Int64(quotient)
            if weight > 0 { remainders.append((remainder, index)) }
        }
        // Larger remainder first; equal remainders keep the id order established above.
        remainders.sort { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.index < $1.index }
        var leftover = bill.value - assigned
        var cursor = 0
        while leftover > 0 && !remainders.isEmpty {
            costs[remainders[cursor % remainders.count].index] += 1
            leftover -= 1
            cursor += 1
        }
        return merged.indices.map { CostShare(driver: merged[$0].driver, fuel: merged[$0].fuel, cost: MinorUnits(costs[$0])) }
    }

    private static func order(_ driver: DriverID?) -> Int64 { driver?.rawValue ?? Int64.max }
}
