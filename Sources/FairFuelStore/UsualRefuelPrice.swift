import FairFuelCore

/// The car's usual price per litre, and whether a refuel's is so far from it that it is taken for a
/// typo: one rule for every way a refuel is entered (the CLI, the web app), each asking to confirm.
public enum UsualRefuelPrice {
    /// Earlier refuels the usual price is taken from (the most recent ones), and the fewest that make one.
    public static let history = 10
    public static let minimumHistory = 3
    /// A price per litre more than this many times off the usual one (either way) is taken for a typo.
    public static let factor = 3.0

    /// A price far from the usual one: both per litre, in minor units, and how many refuels made the usual one.
    public struct Finding: Sendable, Equatable {
        public var pricePerLiter: Double
        public var usualPerLiter: Double
        public var refuels: Int
    }

    /// The median price per litre (minor units) of the refuels before `atUTCMs` in `currency`, from the
    /// most recent `history`; nil with fewer than `minimumHistory` or a median of 0.
    public static func perLiter(
        before atUTCMs: Int64, currency: String, excluding: Int64?, in log: [(id: Int64, refuel: RefuelInput)], vehicleCurrency: String
    ) -> (perLiter: Double, refuels: Int)? {
        let prices = log.filter { $0.id != excluding && $0.refuel.atUTCMs < atUTCMs && ($0.refuel.currency ?? vehicleCurrency) == currency }
            .suffix(history)
            .map { Double($0.refuel.cost.value) / $0.refuel.liters }
            .sorted()
        guard prices.count >= minimumHistory else { return nil }
        let middle = prices.count / 2
        let median = prices.count % 2 == 1 ? prices[middle] : (prices[middle - 1] + prices[middle]) / 2
        return median > 0 ? (median, prices.count) : nil
    }

    /// The finding when `cost` for `liters` is outside a third to three times the usual price; nil when it is not (or no usual price yet).
    public static func check(
        cost: MinorUnits, liters: Double, atUTCMs: Int64, currency: String, excluding: Int64? = nil,
        log: [(id: Int64, refuel: RefuelInput)], vehicleCurrency: String
    ) -> Finding? {
        guard liters > 0,
              let (usual, count) = perLiter(before: atUTCMs, currency: currency, excluding: excluding, in: log, vehicleCurrency: vehicleCurrency)
        else { return nil }
        let price = Double(cost.value) / liters
        guard price < usual / factor || price > usual * factor else { return nil }
        return Finding(pricePerLiter: price, usualPerLiter: usual, refuels: count)
    }
}
