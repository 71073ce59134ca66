import FairFuelCore

extension TripStore {
    /// The typing mistakes a refuel a person entered is held back for until confirmed (`force`), whoever
    /// entered it (the CLI, the web app, a hub's command): a date after `entryClockUTCMs` (the entering
    /// side's clock, never the store's: beyond `StoreConfirmation.futureToleranceMs`) and a price per
    /// litre far from the car's usual one (`UsualRefuelPrice`). `excluding`: the refuel being edited;
    /// `checkDate`, `checkPrice`: what the entry changed. Runs in the write's transaction.
    func refuseEntryMistakes(
        _ refuel: RefuelInput, excluding: Int64?, vehicle: VehicleProfile, entryClockUTCMs: Int64, checkDate: Bool, checkPrice: Bool
    ) throws(StoreError) {
        if checkDate { try refuseFutureEntry(atUTCMs: refuel.atUTCMs, entryClockUTCMs: entryClockUTCMs) }
        // A baseline mark has no price.
        guard checkPrice, !refuel.baseline else { return }
        let currency = refuel.currency ?? vehicle.currency
        if let finding = UsualRefuelPrice.check(
            cost: refuel.cost, liters: refuel.liters, atUTCMs: refuel.atUTCMs, currency: currency, excluding: excluding,
            log: try refuels(), vehicleCurrency: vehicle.currency)
        {
            throw .needsConfirmation(.unusualPrice(finding, cost: refuel.cost, liters: refuel.liters, currency: currency))
        }
    }

    /// A refuel or a baseline mark dated after the entering side's clock (beyond the tolerance): a typo in the year or the month.
    func refuseFutureEntry(atUTCMs: Int64, entryClockUTCMs: Int64) throws(StoreError) {
        guard atUTCMs > entryClockUTCMs + StoreConfirmation.futureToleranceMs else { return }
        throw .needsConfirmation(.future(atUTCMs: atUTCMs, nowUTCMs: entryClockUTCMs))
    }
}
