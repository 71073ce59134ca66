import FairFuelCore
import FairFuelReports
import FairFuelStore

/// A refuel typed on the page or sent to the API, as the store takes it: text to numbers here, every
/// rule about the numbers in the store's own validation (the one `fairfuel refuel` goes through).
enum RefuelEntry {
    static func input(
        liters: String?, cost: String?, full: Bool, odometerKilometers: String?, station: String?, note: String?,
        units: DisplayUnits, nowUTCMs: Int64
    ) throws(WebError) -> RefuelInput {
        guard let litersText = liters, let volume = Double(litersText), volume.isFinite else {
            throw .badRequest("liters: give the litres put in the tank, e.g. 42.5")
        }
        guard volume > 0 else { throw .badRequest("liters: the volume must be more than 0") }
        guard let costText = cost else { throw .badRequest("cost: give what it cost, e.g. 64.90") }
        let amount: MinorUnits
        do { amount = try MoneyText.parse(costText, minorDigits: units.currencyMinorDigits) } catch {
            throw .badRequest("cost: \(error)")
        }
        var odometer: Double?
        if let text = odometerKilometers {
            guard let value = Double(text), value.isFinite, value >= 0 else { throw .badRequest("odometer_km: the reading cannot be negative") }
            odometer = value
        }
        return RefuelInput(
            atUTCMs: nowUTCMs, liters: volume, cost: amount, fullTank: full, odometerKilometers: odometer,
            fuelType: nil, station: station, note: note, currency: units.currency, enteredUTCMs: nowUTCMs)
    }
}
