import FairFuelCore
import FairFuelStore

/// What a correction did to the bills, as the family reads it: each share before and after.
public enum BookChangeText {
    /// One party of a bill in a change: a driver, untracked driving, or fuel burnt before tracking.
    struct Party: Equatable {
        var name: String
        var driverID: Int64?
        var beforeTracking: Bool
    }

    static func party(_ share: RefuelSplit.Share) -> Party {
        Party(
            name: share.beforeTracking ? "(before tracking)" : share.driverName ?? "(untracked)", driverID: share.driver?.rawValue,
            beforeTracking: share.beforeTracking)
    }

    /// Every party of a bill with its share before and after (nil: it had none).
    static func rows(_ bill: BillChange) -> [(party: Party, before: RefuelSplit.Share?, after: RefuelSplit.Share?)] {
        var parties: [Party] = []
        for share in bill.before + bill.after where !parties.contains(party(share)) { parties.append(party(share)) }
        return parties.map { p in (p, bill.before.first { party($0) == p }, bill.after.first { party($0) == p }) }
    }

    /// The units of the bill's own currency (its minor digits), whatever the vehicle's is now.
    static func units(_ bill: BillChange, _ units: DisplayUnits) -> DisplayUnits {
        guard let currency = bill.currency, currency != units.currency,
              let digits = VehicleProfile.minorDigits(ofCurrency: currency) else { return units }
        var own = units
        own.currency = currency
        own.currencyMinorDigits = digits
        return own
    }

    /// Lines for the terminal: a header per bill, then `name  before -> after` per share.
    public static func text(_ change: BookChange, units vehicleUnits: DisplayUnits) -> String {
        guard !change.bills.isEmpty else { return "no bill changed\n" }
        var text = ""
        for bill in change.bills {
            let units = units(bill, vehicleUnits)
            text += "bill \(bill.refuelID) of \(units.minuteText(utcMs: bill.atUTCMs)), \(units.moneyWithCurrency(bill.cost))"
            text += bill.keptSettled ? ": settled, kept as it was (--force)\n" : " re-split:\n"
            for (party, before, after) in rows(bill) {
                let from = before.map { units.moneyText($0.cost) } ?? "-"
                let to = after.map { units.moneyText($0.cost) } ?? "-"
                text += "    " + padded(party.name, 18) + padded(from, 10) + "-> " + padded(to, 10)
                text += "(" + (before.map { units.volumeText(liters: $0.fuelLiters) } ?? "-") + " -> "
                    + (after.map { units.volumeText(liters: $0.fuelLiters) } ?? "-") + ")\n"
            }
        }
        return text
    }

    /// The change as a JSON array of bills, money in minor units.
    public static func json(_ change: BookChange) -> String {
        JSONLine.array(change.bills.map { bill in
            var j = JSONLine()
            j.add("refuel_id", bill.refuelID)
            j.add("at_utc", TripText.utc(bill.atUTCMs))
            j.add("cost_cents", bill.cost.value)
            j.add("currency", bill.currency)
            j.add("kept_settled", bill.keptSettled)
            j.addRaw("shares", json: JSONLine.array(rows(bill).map { party, before, after in
                var s = JSONLine()
                s.add("driver", party.beforeTracking || party.driverID == nil ? nil : party.name)
                s.add("before_tracking", party.beforeTracking)
                s.add("before_cents", before?.cost.value)
                s.add("after_cents", after?.cost.value)
                s.add("before_fuel_l", before?.fuelLiters, decimals: 3)
                s.add("after_fuel_l", after?.fuelLiters, decimals: 3)
                return s.string
            }))
            return j.string
        })
    }

    static func padded(_ text: String, _ width: Int) -> String { TerminalText.padded(text, width) }
}
