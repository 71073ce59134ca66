import FairFuelCore
import FairFuelStore

/// Every bill's split as CSV (RFC 4180), one line per share, in the vehicle's units: what the
/// family's spreadsheet takes (the web app's download).
public enum SplitCSV {
    public static func csv(_ splits: [RefuelSplit], units: DisplayUnits) -> String {
        var text = "refuel,time (\(units.timeLabel)),\(units.volumeUnit),cost,currency,settled,driver,fuel \(units.volumeUnit),share\r\n"
        for split in splits {
            let own = SplitText.units(units, currency: split.refuel.currency)
            let bill = [
                String(split.id), units.minuteText(utcMs: split.refuel.atUTCMs),
                DisplayUnits.fixed(units.volume(liters: split.refuel.liters), 2), own.moneyText(split.refuel.cost), own.currency,
                split.refuel.settledUTCMs.map { units.dateText(utcMs: $0) } ?? "",
            ]
            for share in split.shares {
                let fields = bill + [
                    SplitText.name(share.driverName, beforeTracking: share.beforeTracking),
                    DisplayUnits.fixed(units.volume(liters: share.fuelLiters), 3), own.moneyText(share.cost),
                ]
                text += fields.map(TripText.csvField).joined(separator: ",") + "\r\n"
            }
        }
        return text
    }
}
