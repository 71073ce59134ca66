import FairFuelCore
import FairFuelReports
import FairFuelStore

/// A refuel typed on the page or sent to the API, as the store takes it: text to numbers here, every
/// rule about the numbers in the store's own validation (the one `fairfuel refuel` goes through).
enum RefuelEntry {
    static func input(
        liters: String?, gallons: String? = nil, cost: String?, full: Bool, odometerKilometers: String?, station: String?, note: String?,
        units: DisplayUnits, nowUTCMs: Int64
    ) throws(WebError) -> RefuelInput {
        let volume = try self.liters(liters: liters, gallons: gallons, units: units)
        guard let costText = cost else { throw .badRequest("cost: give what it cost, e.g. 64.90") }
        return RefuelInput(
            atUTCMs: nowUTCMs, liters: volume, cost: try money(costText, units: units), fullTank: full,
            odometerKilometers: try odometer(odometerKilometers), fuelType: nil, station: station, note: note, currency: units.currency,
            enteredUTCMs: nowUTCMs)
    }

    /// `fairfuel refuel edit`'s change from the edit form: only what differs from the refuel as it is
    /// (an emptied odometer forgets the reading; `at`, the car's local time to the minute, moves it).
    static func edit(
        of bill: RefuelInput, at: String? = nil, liters: String?, gallons: String?, cost: String?, full: Bool, odometerKilometers: String?,
        units: DisplayUnits
    ) throws(WebError) -> RefuelEdit {
        var edit = RefuelEdit()
        // The form shows the time to the minute: the same minute is no move.
        if let at, !at.isEmpty, at.replacing("T", with: " ") != units.minuteText(utcMs: bill.atUTCMs) {
            edit.atUTCMs = try instant(at, units: units)
        }
        let volume = try self.liters(liters: liters, gallons: gallons, units: units)
        // The form shows the volume rounded to 2 decimals in the car's unit: the same text is no change.
        if DisplayUnits.fixed(units.volume(liters: volume), 2) != DisplayUnits.fixed(units.volume(liters: bill.liters), 2) { edit.liters = volume }
        let amount = try money(cost ?? "", units: units)
        if amount != bill.cost { edit.cost = amount }
        if full != bill.fullTank { edit.fullTank = full }
        // The form shows the reading to 0.1 km: the same text is no change.
        let reading = try odometer(odometerKilometers)
        if reading.map({ DisplayUnits.fixed($0, 1) }) != bill.odometerKilometers.map({ DisplayUnits.fixed($0, 1) }) {
            edit.odometerKilometers = .some(reading)
        }
        return edit
    }

    /// The instant a typed time names (`fairfuel refuel edit --at`'s rules: without an offset the car's
    /// wall clock, a time that clock skipped refused; one that has not come yet the store asks about).
    static func instant(_ text: String, units: DisplayUnits) throws(WebError) -> Int64 {
        do {
            return try RefuelTime.instant(text, units: units)
        } catch {
            throw .badRequest("at: \(error)")
        }
    }

    /// The volume in litres from `liters`, or from `gallons` in the vehicle's gallon (US, or imperial for `uk`).
    static func liters(liters: String?, gallons: String?, units: DisplayUnits) throws(WebError) -> Double {
        let field = gallons != nil && liters == nil ? "gallons" : "liters"
        guard let text = liters ?? gallons, let volume = Double(text), volume.isFinite else {
            throw .badRequest("\(field): give the \(field == "gallons" ? "gallons" : "litres") put in the tank, e.g. 42.5")
        }
        guard volume > 0 else { throw .badRequest("\(field): the volume must be more than 0") }
        guard field == "gallons" else { return volume }
        return units.liters(gallons: volume)
    }

    static func money(_ text: String, units: DisplayUnits) throws(WebError) -> MinorUnits {
        do { return try MoneyText.parse(text, minorDigits: units.currencyMinorDigits) } catch { throw .badRequest("cost: \(error)") }
    }

    static func odometer(_ text: String?) throws(WebError) -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else { throw .badRequest("odometer_km: the reading cannot be negative") }
        return value
    }
}
