import FairFuelCore
import FairFuelStore

/// The fuel log as JSON: `fairfuel refuel list --json` and the web app's `/api/v1/refuels` alike.
public enum RefuelText {
    public static func json(id: Int64, _ refuel: RefuelInput, vehicleCurrency: String) -> String {
        var j = JSONLine()
        j.add("id", id)
        j.add("at_utc", TripText.utc(refuel.atUTCMs))
        j.add("liters", refuel.liters, decimals: 3)
        j.add("cost_cents", refuel.cost.value)
        j.add("currency", refuel.currency ?? vehicleCurrency)
        j.add("full", refuel.fullTank)
        j.add("odometer_km", refuel.odometerKilometers, decimals: 1)
        j.add("fuel", refuel.fuelType)
        j.add("station", refuel.station)
        j.add("note", refuel.note)
        j.add("entered_utc", TripText.utc(refuel.enteredUTCMs))
        j.add("untracked_policy", refuel.untrackedPolicy?.rawValue)
        j.add("settled_utc", TripText.utc(refuel.settledUTCMs))
        if refuel.baseline { j.add("baseline", true) }
        return j.string
    }

    public static func jsonArray(_ refuels: [(id: Int64, refuel: RefuelInput)], vehicleCurrency: String) -> String {
        JSONLine.array(refuels.map { json(id: $0.id, $0.refuel, vehicleCurrency: vehicleCurrency) })
    }
}
