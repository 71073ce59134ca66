import FairFuelCore
import FairFuelStore

/// `fairfuel split` as text and JSON: per bill, per driver or per month, for one store or for
/// several cars' pulls. Every function returns whole lines, the last ending in a newline.
public enum SplitText {
    public enum Grouping: String, Sendable, CaseIterable {
        case refuel, driver, month
    }

    /// One car's bills, as its own units show them.
    public struct Car: Sendable {
        public var label: String
        public var units: DisplayUnits
        public var splits: [RefuelSplit]

        public init(label: String, units: DisplayUnits, splits: [RefuelSplit]) {
            self.label = label
            self.units = units
            self.splits = splits
        }
    }

    /// One store's split (`fairfuel split`).
    public static func render(_ splits: [RefuelSplit], by grouping: Grouping, json: Bool, units: DisplayUnits) -> String {
        switch grouping {
        case .refuel:
            guard json else { return splits.map { refuelText($0, units: units) }.joined() }
            return JSONLine.array(splits.map { refuelJSON($0, units: units, bookkeeping: true) }) + "\n"
        case .driver, .month:
            return totals(BillShare.all(splits), by: grouping, json: json, units: units)
        }
    }

    /// Several cars' split (`fairfuel split DIR...`): per bill, each car's bills under its name, then
    /// the family's totals per driver; per driver or per month, the family's totals. `units` are the family's.
    /// The bills' shares must name each driver as the family knows them (one name per person).
    public static func render(cars: [Car], by grouping: Grouping, json: Bool, units: DisplayUnits) -> String {
        let shares = cars.flatMap { car in BillShare.all(car.splits).map { share in
            // Every bill names its currency: cars may keep their books in different ones.
            var share = share
            share.currency = share.currency ?? car.units.currency
            return share
        } }
        guard grouping == .refuel else { return totals(shares, by: grouping, json: json, units: units) }
        let family = SplitTotals.byDriver(shares)
        if json {
            var j = JSONLine()
            j.addRaw("cars", json: JSONLine.array(cars.map { car in
                var c = JSONLine()
                // The label, not the vehicle id: a USB pull knows the store's id, a hub the uplink's.
                c.add("car", car.label)
                // A pull carries no settlement or policy: those stay in each car's own `split --json`.
                c.addRaw("refuels", json: JSONLine.array(car.splits.map { refuelJSON($0, units: car.units, bookkeeping: false) }))
                return c.string
            }))
            j.addRaw("drivers", json: JSONLine.array(family.map(totalJSON)))
            return j.string + "\n"
        }
        var text = ""
        for car in cars {
            text += TerminalText.escaped(car.label) + "\n"
            text += car.splits.isEmpty ? "    no refuels\n" : car.splits.map { refuelText($0, units: car.units, indent: "    ") }.joined()
        }
        return text + "family\n" + table(family, units: units, indent: "    ")
    }

    /// Per driver or per month, over any set of shares.
    static func totals(_ shares: [BillShare], by grouping: Grouping, json: Bool, units: DisplayUnits) -> String {
        if grouping != .month {
            let totals = SplitTotals.byDriver(shares)
            return json ? JSONLine.array(totals.map(totalJSON)) + "\n" : table(totals, units: units)
        }
        let months = SplitTotals.byMonth(shares, in: units.timeZone)
        if json {
            return JSONLine.array(months.map { month, totals in
                var j = JSONLine()
                j.add("month", month.description)
                // One currency's total only; a month with bills in several has one entry per currency in shares.
                if Set(totals.map(\.currency)).count == 1 { j.add("cost_cents", totals.reduce(Int64(0)) { $0 + $1.cost.value }) }
                j.addRaw("shares", json: JSONLine.array(totals.map(totalJSON)))
                return j.string
            }) + "\n"
        }
        var text = ""
        for (month, totals) in months {
            var byCurrency: [(String, MinorUnits)] = []
            for total in totals {
                let code = total.currency ?? units.currency
                if let i = byCurrency.firstIndex(where: { $0.0 == code }) { byCurrency[i].1 += total.cost } else { byCurrency.append((code, total.cost)) }
            }
            text += "\(month)  " + byCurrency.map { Self.units(units, currency: $0.0).moneyWithCurrency($0.1) }.joined(separator: ", ") + "\n"
            text += table(totals, units: units, indent: "    ")
        }
        return text
    }

    /// A bill and its shares; `bookkeeping`: with its settlement and untracked policy.
    static func refuelJSON(_ split: RefuelSplit, units: DisplayUnits, bookkeeping: Bool) -> String {
        var j = JSONLine()
        j.add("id", split.id)
        j.add("at_utc", TripText.utc(split.refuel.atUTCMs))
        j.add("liters", split.refuel.liters, decimals: 3)
        j.add("cost_cents", split.refuel.cost.value)
        j.add("full", split.refuel.fullTank)
        j.add("currency", split.refuel.currency ?? units.currency)
        if let rule = split.rule { j.add("rule", rule.rawValue) }
        if bookkeeping {
            j.add("settled_utc", TripText.utc(split.refuel.settledUTCMs))
            j.add("untracked_policy", split.refuel.untrackedPolicy?.rawValue)
        }
        j.addRaw("shares", json: JSONLine.array(split.shares.map { share in
            var s = JSONLine()
            s.add("driver", share.driverName)
            s.add("fuel_l", share.fuelLiters, decimals: 3)
            s.add("cost_cents", share.cost.value)
            if share.beforeTracking { s.add("before_tracking", true) }
            return s.string
        }))
        return j.string
    }

    static func refuelText(_ split: RefuelSplit, units: DisplayUnits, indent: String = "") -> String {
        // A bill keeps the currency it was paid in, even after `vehicle set --currency`.
        let units = Self.units(units, currency: split.refuel.currency)
        if split.rule == .baseline || split.refuel.baseline {
            return indent + "\(units.minuteText(utcMs: split.refuel.atUTCMs))  \(SplitRule.baseline.explanation)\n"
        }
        var text = indent + "\(units.minuteText(utcMs: split.refuel.atUTCMs))  \(units.volumeText(liters: split.refuel.liters))  "
            + units.moneyWithCurrency(split.refuel.cost) + (split.refuel.settledUTCMs != nil ? "  settled" : "") + "\n"
        // An ordinary bill goes without saying; any other says how it was split.
        if let rule = split.rule, rule != .ordinary { text += indent + "    (\(rule.explanation))\n" }
        for share in split.shares {
            text += indent + "    " + pad(name(share.driverName, beforeTracking: share.beforeTracking), 18)
                + pad(units.volumeText(liters: share.fuelLiters), 12) + units.moneyText(share.cost) + "\n"
        }
        return text
    }

    /// The units of a bill's own currency (its minor digits).
    public static func units(_ units: DisplayUnits, currency: String?) -> DisplayUnits {
        guard let currency, currency != units.currency, let digits = VehicleProfile.minorDigits(ofCurrency: currency) else { return units }
        var own = units
        own.currency = currency
        own.currencyMinorDigits = digits
        return own
    }

    public static func name(_ driver: String?, beforeTracking: Bool) -> String {
        beforeTracking ? "(before tracking)" : driver ?? "(untracked)"
    }

    static func totalJSON(_ total: SplitTotal) -> String {
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
            text += indent + pad(name(total.driverName, beforeTracking: total.beforeTracking), 18)
                + pad(units.volumeText(liters: total.fuelLiters), 12)
                + pad(currencies.count > 1 ? units.moneyWithCurrency(total.cost) : units.moneyText(total.cost), 10)
                + "\(total.refuels) refuel(s)\n"
        }
        return text
    }

    static func pad(_ text: String, _ width: Int) -> String { StatusText.pad(text, width) }
}
