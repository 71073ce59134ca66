import FairFuelCore
import FairFuelStore

/// How a price far from the car's usual one is told, the same words wherever a refuel is entered.
public enum UsualPriceText {
    /// "64.90 EUR for 5.00 L is 12.98 EUR/L, far from this car's usual ..." (or, before it has one, outside
    /// what fuel costs anywhere in its currency): each caller adds how to go ahead.
    public static func message(_ finding: UsualRefuelPrice.Finding, cost: MinorUnits, liters: Double, units: DisplayUnits) -> String {
        // Per the unit the family reads volumes in (a litre, a US or a UK gallon).
        let perUnit = units.liters(volume: 1)
        func text(_ perLiter: Double) -> String {
            let minor = (perLiter * perUnit).rounded()
            // A typo such as 0.000001 L makes a price no money holds: said so, never converted (that would trap).
            guard minor.isFinite, abs(minor) < 1e15 else { return "an absurd price per " + units.volumeUnit }
            return units.moneyWithCurrency(MinorUnits(Int64(minor))) + "/" + units.volumeUnit
        }
        let paid = "\(units.moneyWithCurrency(cost)) for \(units.volumeText(liters: liters)) is \(text(finding.pricePerLiter))"
        switch finding.reference {
        case let .usual(usual, refuels):
            return "\(paid), far from this car's usual \(text(usual)) (the median of its last \(refuels) refuels before it; more than "
                + "\(Int(UsualRefuelPrice.factor)) times off)"
        case let .pumpRange(currency, lowest, highest):
            return "\(paid), outside what fuel costs anywhere in \(currency) (\(text(lowest)) to \(text(highest)); "
                + "this car has fewer than \(UsualRefuelPrice.minimumHistory) refuels to tell its usual price)"
        }
    }
}
