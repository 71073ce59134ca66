import FairFuelStore

/// A change the store holds back until confirmed, in the family's units (their volume unit, the
/// vehicle's time zone), with the caller's way to go ahead (`goAhead`: the CLI's "add --force", the web's "confirm").
public enum StoreConfirmationText {
    public static func message(_ confirmation: StoreConfirmation, units: DisplayUnits, goAhead: String) -> String {
        switch confirmation {
        case let .unusualPrice(finding, cost, liters, _):
            return UsualPriceText.message(finding, cost: cost, liters: liters, units: units) + ": "
                + StoreConfirmation.unusualPriceAdvice(goAhead: goAhead)
        case let .future(at, now):
            return "\(units.minuteText(utcMs: at)) (\(units.timeZoneText)) is in the future (now is \(units.minuteText(utcMs: now))); "
                + StoreConfirmation.futureAdvice(goAhead: goAhead)
        case .touchesSettled:
            return confirmation.text(goAhead: goAhead)
        }
    }
}
