import FairFuelCore
import FairFuelStore

/// The summary as JSON and as text.
public enum SummaryText {
    /// One JSON object; `cars`: the cars of a family summary (several cars' pulls), listed first.
    /// `learnedConsumption`: `LearnedConsumptionText.json` of the car's store (none for pulls).
    public static func json(_ summary: FamilySummary, cars: [String]? = nil, learnedConsumption: String? = nil) -> String {
        var j = JSONLine()
        if let cars {
            j.addRaw("cars", json: JSONLine.array(cars.map { car in
                var quoted = ""
                JSONLine.appendQuoted(car, to: &quoted)
                return quoted
            }))
        }
        j.add("month", summary.month?.description)
        j.addRaw("drivers", json: JSONLine.array(summary.drivers.map { d in
            var o = JSONLine()
            o.add("driver", d.driverName)
            o.add("trips", d.trips)
            o.add("distance_km", d.distanceMeters / 1000, decimals: 3)
            o.add("duration_s", d.durationMs / 1000)
            o.add("idle_s", d.idleMs / 1000)
            o.add("fuel_l", d.fuelLiters, decimals: 3)
            o.add("l_per_100km", d.litersPer100km, decimals: 2)
            o.add("cost_cents", d.cost.value)
            o.add("harsh_events", d.harshEvents)
            o.add("harsh_per_100km", d.harshPer100km, decimals: 2)
            o.add("idle_share", d.idleShare, decimals: 3)
            o.add("eco_score", d.ecoScore)
            return o.string
        }))
        j.add("untracked_cost_cents", summary.untrackedCost.value)
        j.add("bills_cents", summary.billsTotal.value)
        j.add("before_tracking_cents", summary.beforeTrackingCost.value)
        j.addRaw("bills_by_rule", json: JSONLine.array(summary.billsByRule.map { total in
            var o = JSONLine()
            o.add("rule", total.rule.rawValue)
            o.add("bills", total.bills)
            o.add("cost_cents", total.total.value)
            return o.string
        }))
        j.addRaw("other_currencies", json: JSONLine.array(summary.otherCurrencyBills.map { other in
            var o = JSONLine()
            o.add("currency", other.currency)
            o.add("bills_minor", other.total.value)
            return o.string
        }))
        j.addRaw("full_fills", json: JSONLine.array(summary.fullFills.map { p in
            var o = JSONLine()
            o.add("from_utc", TripText.utc(p.fromUTCMs))
            o.add("to_utc", TripText.utc(p.toUTCMs))
            o.add("pumped_l", p.pumpedLiters, decimals: 3)
            o.add("estimated_l", p.estimatedLiters, decimals: 3)
            o.add("tracked_km", p.trackedMeters / 1000, decimals: 3)
            o.add("odometer_km", p.odometerKilometers, decimals: 1)
            o.add("real_l_per_100km", p.realLitersPer100km, decimals: 2)
            o.add("estimated_l_per_100km", p.estimatedLitersPer100km, decimals: 2)
            return o.string
        }))
        if let learnedConsumption { j.addRaw("learned_consumption", json: learnedConsumption) }
        return j.string
    }

    /// Lines for a terminal; `fullFillsKept` false: the summary is of pulls, which carry no full-fill periods.
    public static func text(_ summary: FamilySummary, vehicle: String, units u: DisplayUnits, fullFillsKept: Bool = true) -> String {
        var text = "\(TerminalText.escaped(vehicle)), \(summary.month?.description ?? "all time") (\(u.timeZoneText))\n"
        // The fuel and consumption columns widen for a long unit (`gal (UK)`) rather than run into the next.
        let fuelWidth = max(10, ("fuel " + u.volumeUnit).count + 1)
        let consumptionWidth = max(10, u.consumptionUnit.count + 1)
        text += pad("driver", 14) + pad("trips", 7) + pad(u.distanceUnit, 10) + pad("time", 13) + pad("fuel " + u.volumeUnit, fuelWidth)
            + pad(u.consumptionUnit, consumptionWidth) + pad("harsh/" + u.rateDistance, 14) + pad("idle", 7) + pad(u.currency, 10) + "eco\n"
        for d in summary.drivers {
            text += pad(d.driverName, 14) + pad(String(d.trips), 7) + pad(DisplayUnits.fixed(u.distance(meters: d.distanceMeters), 1), 10)
                + pad(DisplayUnits.durationText(milliseconds: d.durationMs), 13) + pad(DisplayUnits.fixed(u.volume(liters: d.fuelLiters), 2), fuelWidth)
                + pad(d.litersPer100km.flatMap(u.consumption(litersPer100km:)).map { DisplayUnits.fixed($0, 1) } ?? "-", consumptionWidth)
                + pad(d.harshPer100km.map { DisplayUnits.fixed(u.per100(perHundredKilometers: $0), 1) } ?? "-", 14)
                + pad(d.idleShare.map { DisplayUnits.fixed($0 * 100, 0) + "%" } ?? "-", 7) + pad(u.moneyText(d.cost), 10)
                + (d.ecoScore.map(String.init) ?? "-") + "\n"
        }
        text += "bills \(u.moneyWithCurrency(summary.billsTotal))"
        text += summary.untrackedCost == .zero ? "" : ", of which untracked driving \(u.moneyWithCurrency(summary.untrackedCost))"
        text += summary.beforeTrackingCost == .zero ? "\n" : ", before tracking (the first fill-up's remainder) \(u.moneyWithCurrency(summary.beforeTrackingCost))\n"
        if let rules = rulesText(summary, units: u) { text += "bills by rule: \(rules)\n" }
        for other in summary.otherCurrencyBills {
            let digits = VehicleProfile.minorDigits(ofCurrency: other.currency) ?? 2
            text += "bills in \(other.currency) (not added): \(MoneyText.format(other.total, minorDigits: digits)) \(other.currency)\n"
        }
        guard fullFillsKept else { return text + "real consumption: per car, from its own store (`fairfuel summary --db`)\n" }
        guard !summary.fullFills.isEmpty else { return text + "real consumption: needs two full fills\n" }
        text += "between full fills: real (pump) vs estimated\n"
        for p in summary.fullFills {
            let over = p.odometerKilometers != nil ? "odometer" : "GNSS"
            text += "    " + u.dateText(utcMs: p.fromUTCMs) + " to " + u.dateText(utcMs: p.toUTCMs)
                + "  " + pad(u.distanceText(meters: p.distanceMeters), 11) + pad(u.volumeText(liters: p.pumpedLiters) + " pumped", 16 + max(0, u.volumeUnit.count - 3))
                + "real " + pad(u.consumptionText(litersPer100km: p.realLitersPer100km), 14)
                + "estimated " + pad(u.consumptionText(litersPer100km: p.estimatedLitersPer100km), 14) + "(\(over))\n"
        }
        return text
    }

    /// "first fill-up 1 (72.49 EUR), ordinary 2 (15.22 EUR)"; nil when no bill's rule is known.
    static func rulesText(_ summary: FamilySummary, units u: DisplayUnits) -> String? {
        guard !summary.billsByRule.isEmpty else { return nil }
        return summary.billsByRule.map { "\($0.rule.label) \($0.bills) (\(u.moneyWithCurrency($0.total)))" }.joined(separator: ", ")
    }

    static func pad(_ text: String, _ width: Int) -> String { StatusText.pad(text, width) }
}
