import FairFuelCore

/// A change the store holds back until the person confirms it (the CLI's `--force`, the web app's and
/// the hub's confirm): what it would do. The caller words how to go ahead, in its own terms.
public enum StoreConfirmation: Sendable, Equatable {
    /// The change would move the splits of these settled bills.
    case touchesSettled(bills: [Int64])
    /// The price per litre is taken for a typo (`UsualRefuelPrice`); `cost` in `currency`'s minor units.
    case unusualPrice(UsualRefuelPrice.Finding, cost: MinorUnits, liters: Double, currency: String)
    /// The refuel is dated after the entering person's clock (`nowUTCMs`), beyond `futureToleranceMs`.
    case future(atUTCMs: Int64, nowUTCMs: Int64)

    /// How far past the entering person's clock a refuel may be dated: a pump's or a phone's clock a little ahead.
    public static let futureToleranceMs: Int64 = 10 * 60_000

    /// The store's own words (UTC, litres, the currency's minor digits), for callers without the family's
    /// units (the car's answer to a hub command); `goAhead` says how to confirm ("add --force", "confirm").
    public func text(goAhead: String) -> String {
        switch self {
        case let .touchesSettled(ids):
            let list = ids.map(String.init).joined(separator: ", ")
            return "this would change settled bill(s) \(list), and a settled bill never changes; nothing was changed. "
                + "To re-split them with the change, unsettle them first (`fairfuel refuel unsettle \(ids.map(String.init).joined(separator: " "))`); "
                + "or \(goAhead) to make the change and keep the settled bill(s) as they are (they will not show it)"
        case let .unusualPrice(finding, cost, liters, currency):
            let digits = VehicleProfile.minorDigits(ofCurrency: currency) ?? 2
            func perLiter(_ minor: Double) -> String {
                let rounded = minor.rounded()
                guard rounded.isFinite, abs(rounded) < 1e15 else { return "an absurd price per L" }
                return MoneyText.format(MinorUnits(Int64(rounded)), minorDigits: digits) + " \(currency)/L"
            }
            let paid = "\(MoneyText.format(cost, minorDigits: digits)) \(currency) for \(liters) L is \(perLiter(finding.pricePerLiter))"
            let reference = switch finding.reference {
            case let .usual(usual, refuels): "far from this car's usual \(perLiter(usual)) (the median of its last \(refuels) refuels before it)"
            case let .pumpRange(_, lowest, highest): "outside what fuel costs anywhere in \(currency) (\(perLiter(lowest)) to \(perLiter(highest)))"
            }
            return "\(paid), \(reference): " + Self.unusualPriceAdvice(goAhead: goAhead)
        case let .future(at, now):
            return "\(UTCTimestamp(millisecondsSinceEpoch: at).iso8601) is in the future (now is \(UTCTimestamp(millisecondsSinceEpoch: now).iso8601)); "
                + Self.futureAdvice(goAhead: goAhead)
        }
    }

    /// What to do about a price taken for a typo (each caller words the price itself in its units).
    public static func unusualPriceAdvice(goAhead: String) -> String {
        "check the cost and the volume, or \(goAhead) if they are right; nothing was changed"
    }

    /// What to do about a refuel dated in the future.
    public static func futureAdvice(goAhead: String) -> String {
        "a refuel is entered once it happened: check the date, or \(goAhead) if it is right; nothing was changed"
    }
}
