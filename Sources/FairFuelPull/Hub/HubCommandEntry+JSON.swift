import FairFuelCore
import FairFuelStore

extension HubCommandEntry {
    /// The command as `fairfuel hub status --json` and the hub's web API give it; `vehicle` when it lists several cars'.
    public func json(withVehicle: Bool) -> String {
        var c = JSONLine()
        c.add("id", id)
        if withVehicle { c.add("vehicle", vehicle) }
        c.add("command", name)
        c.add("sent_utc", UTCTimestamp(millisecondsSinceEpoch: sentUTCMs).iso8601)
        c.add("state", state)
        c.add("reason", reason)
        return c.string
    }
}
