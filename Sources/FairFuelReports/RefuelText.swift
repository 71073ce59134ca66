import FairFuelCore
import FairFuelStore

/// The fuel log as JSON: `fairfuel refuel list --json` and the web app's `/api/v1/refuels` alike.
public enum RefuelText {
    /// The refuel's id, the fields its uplink message carries, and the book's state.
    public static func json(id: Int64, _ refuel: RefuelInput, vehicleCurrency: String) -> String {
        var j = JSONLine()
        j.add("id", id)
        UplinkPayload.addRefuelFields(refuel, vehicleCurrency: vehicleCurrency, withBookState: true, to: &j)
        return j.string
    }

    public static func jsonArray(_ refuels: [(id: Int64, refuel: RefuelInput)], vehicleCurrency: String) -> String {
        JSONLine.array(refuels.map { json(id: $0.id, $0.refuel, vehicleCurrency: vehicleCurrency) })
    }
}
