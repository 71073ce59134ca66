import ArgumentParser
import FairFuelCore
import FairFuelService
import FairFuelStore

struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split", abstract: "Show how each refuel's bill is split between the drivers.")

    @Flag(help: "Print a JSON array, one object per refuel in time order.")
    var json = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let db = try store.openReadOnly()
        let vehicle = try db.vehicle()
        let splits = try db.splits()
        if json {
            print(JSONLine.array(splits.map { split in
                var j = JSONLine()
                j.add("at_utc", utc(split.refuel.atUTCMs))
                j.add("liters", split.refuel.liters, decimals: 3)
                j.add("cost_cents", split.refuel.cost.value)
                j.add("full", split.refuel.fullTank)
                j.addRaw("shares", json: JSONLine.array(split.shares.map { share in
                    var s = JSONLine()
                    s.add("driver", share.driverName)
                    s.add("fuel_l", share.fuelLiters, decimals: 3)
                    s.add("cost_cents", share.cost.value)
                    return s.string
                }))
                return j.string
            }))
            return
        }
        for split in splits {
            print("\(utc(split.refuel.atUTCMs) ?? "?")  \(JSONLine.formatFixed(split.refuel.liters, decimals: 2)) L  "
                + "\(MoneyText.format(split.refuel.cost, minorDigits: vehicle.currencyMinorDigits)) \(vehicle.currency)")
            for share in split.shares {
                print("    " + pad(share.driverName ?? "(untracked)", 14) + pad(JSONLine.formatFixed(share.fuelLiters, decimals: 2) + " L", 12)
                    + MoneyText.format(share.cost, minorDigits: vehicle.currencyMinorDigits))
            }
        }
    }
}
