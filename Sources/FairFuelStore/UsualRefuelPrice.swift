import FairFuelCore

/// The car's usual price per litre, and whether a refuel's is so far from it that it is taken for a
/// typo: one rule for every way a refuel is entered (the CLI, the web app), each asking to confirm.
public enum UsualRefuelPrice {
    /// Earlier refuels the usual price is taken from (the most recent ones), and the fewest that make one.
    public static let history = 10
    public static let minimumHistory = 3
    /// A price per litre more than this many times off the usual one (either way) is taken for a typo.
    public static let factor = 3.0

    /// A price taken for a typo: per litre, in minor units, and what it was measured against.
    public struct Finding: Sendable, Equatable {
        public enum Reference: Sendable, Equatable {
            /// Far from the car's usual price: the median of its last `refuels` refuels.
            case usual(perLiter: Double, refuels: Int)
            /// Before the car has a usual price: outside what fuel costs anywhere in the currency
            /// (`VehicleProfile.pumpPricePerLiter`), per litre in minor units.
            case pumpRange(currency: String, lowestPerLiter: Double, highestPerLiter: Double)
        }

        public var pricePerLiter: Double
        public var reference: Reference
    }

    /// The median price per litre (minor units) of the refuels before `atUTCMs` in `currency`, from the
    /// most recent `history`; nil with fewer than `minimumHistory` or a median of 0.
    public static func perLiter(
        before atUTCMs: Int64, currency: String, excluding: Int64?, in log: [(id: Int64, refuel: RefuelInput)], vehicleCurrency: String
    ) -> (perLiter: Double, refuels: Int)? {
        // A baseline mark has no litres and no price.
        let prices = log.filter { $0.id != excluding && !$0.refuel.baseline && $0.refuel.atUTCMs < atUTCMs && ($0.refuel.currency ?? vehicleCurrency) == currency }
            .suffix(history)
            .map { Double($0.refuel.cost.value) / $0.refuel.liters }
            .sorted()
        guard prices.count >= minimumHistory else { return nil }
        let middle = prices.count / 2
        let median = prices.count % 2 == 1 ? prices[middle] : (prices[middle - 1] + prices[middle]) / 2
        return median > 0 ? (median, prices.count) : nil
    }

    /// The finding when `cost` for `liters` is outside a third to three times the usual price, or,
    /// before the car has one, outside what fuel costs anywhere in `currency`; nil when it is not.
    public static func check(
        cost: MinorUnits, liters: Double, atUTCMs: Int64, currency: String, excluding: Int64? = nil,
        log: [(id: Int64, refuel: RefuelInput)], vehicleCurrency: String
    ) -> Finding? {
        guard liters > 0 else { return nil }
        let price = Double(cost.value) / liters
        if let (usual, count) = perLiter(before: atUTCMs, currency: currency, excluding: excluding, in: log, vehicleCurrency: vehicleCurrency) {
            guard price < usual / factor || price > usual * factor else { return nil }
            return Finding(pricePerLiter: price, reference: .usual(perLiter: usual, refuels: count))
        }
        guard let range = VehicleProfile.pumpPricePerLiter(ofCurrency: currency),
              let digits = VehicleProfile.minorDigits(ofCurrency: currency) else { return nil }
        var minorPerMajor = 1.0
        for _ in 0..<digits { minorPerMajor *= 10 }
        let lowest = range.lowerBound * minorPerMajor, highest = range.upperBound * minorPerMajor
        guard price < lowest || price > highest else { return nil }
        return Finding(pricePerLiter: price, reference: .pumpRange(currency: currency, lowestPerLiter: lowest, highestPerLiter: highest))
    }
}
