import ArgumentParser
import FairFuelCore
import FairFuelDomain
import FairFuelReports
import FairFuelService
import FairFuelStore

struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split", abstract: "Show how the bills are split between the drivers: per refuel, per driver or per month.")

    enum Grouping: String, ExpressibleByArgument, CaseIterable {
        case refuel, driver, month
    }

    @Option(help: "refuel (each bill), driver (totals), or month (totals per calendar month, UTC).")
    var by: Grouping = .refuel
    @Flag(help: "Print JSON (money in minor units: cost_cents).")
    var json = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let db = try store.openReadOnly()
        let vehicle = try db.vehicle()
        let units = DisplayUnits(units: vehicle.units, currency: vehicle.currency, currencyMinorDigits: vehicle.currencyMinorDigits)
        let splits = try db.splits()
        switch by {
        case .refuel: perRefuel(splits, units: units)
        case .driver:
            let totals = SplitTotals.byDriver(BillShare.all(splits))
            if json {
                print(JSONLine.array(totals.map(Self.json)))
            } else {
                print(Self.table(totals, units: units), terminator: "")
            }
        case .month:
            let months = SplitTotals.byMonth(BillShare.all(splits))
            if json {
                print(JSONLine.array(months.map { month, totals in
                    var j = JSONLine()
                    j.add("month", month.description)
                    // One currency's total only; a month with bills in several has one entry per currency in shares.
                    if Set(totals.map(\.currency)).count == 1 { j.add("cost_cents", totals.reduce(Int64(0)) { $0 + $1.cost.value }) }
                    j.addRaw("shares", json: JSONLine.array(totals.map(Self.json)))
                    return j.string
                }))
            } else {
                for (month, totals) in months {
                    var byCurrency: [(String, MinorUnits)] = []
                    for total in totals {
                        let code = total.currency ?? units.currency
                        if let i = byCurrency.firstIndex(where: { $0.0 == code }) { byCurrency[i].1 += total.cost } else { byCurrency.append((code, total.cost)) }
                    }
                    print("\(month)  " + byCurrency.map { Self.units(units, currency: $0.0).moneyWithCurrency($0.1) }.joined(separator: ", "))
                    print(Self.table(totals, units: units, indent: "    "), terminator: "")
                }
            }
        }
    }

    func perRefuel(_ splits: [RefuelSplit], units: DisplayUnits) {
        if json {
            print(JSONLine.array(splits.map { split in
                var j = JSONLine()
                j.add("id", split.id)
                j.add("at_utc", utc(split.refuel.atUTCMs))
                j.add("liters", split.refuel.liters, decimals: 3)
                j.add("cost_cents", split.refuel.cost.value)
                j.add("full", split.refuel.fullTank)
                j.add("currency", split.refuel.currency ?? units.currency)
                j.add("settled_utc", utc(split.refuel.settledUTCMs))
                j.add("untracked_policy", split.refuel.untrackedPolicy?.rawValue)
                j.addRaw("shares", json: JSONLine.array(split.shares.map { share in
                    var s = JSONLine()
                    s.add("driver", share.driverName)
                    s.add("fuel_l", share.fuelLiters, decimals: 3)
                    s.add("cost_cents", share.cost.value)
                    if share.beforeTracking { s.add("before_tracking", true) }
                    return s.string
                }))
                return j.string
            }))
            return
        }
        for split in splits {
            // A bill keeps the currency it was paid in, even after `vehicle set --currency`.
            let units = Self.units(units, currency: split.refuel.currency)
            print("\(DisplayUnits.minuteText(utcMs: split.refuel.atUTCMs))  \(units.volumeText(liters: split.refuel.liters))  "
                + units.moneyWithCurrency(split.refuel.cost) + (split.refuel.settledUTCMs != nil ? "  settled" : ""))
            for share in split.shares {
                print("    " + pad(Self.name(share.driverName, beforeTracking: share.beforeTracking), 18)
                    + pad(units.volumeText(liters: share.fuelLiters), 12) + units.moneyText(share.cost))
            }
        }
    }

    /// The units of a bill's own currency (its minor digits).
    static func units(_ units: DisplayUnits, currency: String?) -> DisplayUnits {
        guard let currency, currency != units.currency, let digits = VehicleProfile.minorDigits(ofCurrency: currency) else { return units }
        return DisplayUnits(system: units.system, currency: currency, currencyMinorDigits: digits)
    }

    static func name(_ driver: String?, beforeTracking: Bool) -> String {
        beforeTracking ? "(before tracking)" : driver ?? "(untracked)"
    }

    static func json(_ total: SplitTotal) -> String {
        var j = JSONLine()
        j.add("driver", total.driverName)
        if let currency = total.currency { j.add("currency", currency) }
        if total.beforeTracking { j.add("before_tracking", true) }
        j.add("fuel_l", total.fuelLiters, decimals: 3)
        j.add("cost_cents", total.cost.value)
        j.add("refuels", total.refuels)
        return j.string
    }

    static func table(_ totals: [SplitTotal], units: DisplayUnits, indent: String = "") -> String {
        var text = ""
        let currencies = Set(totals.map { $0.currency ?? units.currency })
        for total in totals {
            // Totals in several currencies are never added: each line names its own.
            let units = Self.units(units, currency: total.currency)
            text += indent + pad(Self.name(total.driverName, beforeTracking: total.beforeTracking), 18)
                + pad(units.volumeText(liters: total.fuelLiters), 12)
                + pad(currencies.count > 1 ? units.moneyWithCurrency(total.cost) : units.moneyText(total.cost), 10)
                + "\(total.refuels) refuel(s)\n"
        }
        return text
    }
}
