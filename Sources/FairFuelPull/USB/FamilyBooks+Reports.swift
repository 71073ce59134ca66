import FairFuelCore
import FairFuelReports
import FairFuelStore

/// `split`, `summary` and `report --html` over several cars' pulls, through the renderers a single
/// store's commands use. Per person, across cars: people are already joined, so the renderers'
/// own grouping by name puts each person on one line.
extension FamilyBooks {
    /// The family's units and currency: the first car's (a bill in another currency is never added to it);
    /// its time zone when every car has the same, else UTC (months must be one calendar's).
    public var units: DisplayUnits {
        guard var units = cars.first?.units else { return DisplayUnits(system: .metric, currency: "EUR", currencyMinorDigits: 2) }
        if !cars.allSatisfy({ $0.units.timeZone == units.timeZone }) { units.timeZone = .utc }
        return units
    }

    /// Every car's split: per bill (each car's, then the family's totals per person), per person, or per month.
    public func splitText(by grouping: SplitText.Grouping, json: Bool) -> String {
        SplitText.render(
            cars: cars.map { car in
                var carUnits = car.units
                carUnits.timeZone = units.timeZone  // one clock for the family's page
                return SplitText.Car(label: car.label, units: carUnits, splits: car.splits)
            },
            by: grouping, json: json, units: units)
    }

    /// The family's figures per person across cars (nil: all time). Pulls carry neither the cars' fuel
    /// traces nor their rated consumption: no full-fill periods, and no eco score.
    public func summary(_ month: CalendarMonth?) -> FamilySummary {
        Self.summary(month, trips: cars.flatMap(\.trips), shares: cars.flatMap(Self.shares), currency: units.currency, in: units.timeZone)
    }

    public func summaryText(_ month: CalendarMonth?, json: Bool) -> String {
        let summary = summary(month)
        if json { return SummaryText.json(summary, cars: cars.map(\.label)) + "\n" }
        return SummaryText.text(summary, vehicle: cars.map(\.label).joined(separator: " + "), units: units, fullFillsKept: false)
    }

    /// The month of the latest trip or refuel of any car: a report's default.
    public var latestMonth: CalendarMonth? {
        let trips = cars.flatMap(\.trips).compactMap(\.startUTCMs).max() ?? .min
        let refuels = cars.flatMap(\.splits).map(\.refuel.atUTCMs).max() ?? .min
        let latest = max(trips, refuels)
        return latest == .min ? nil : CalendarMonth(utcMs: latest, in: units.timeZone)
    }

    /// One page: the family's totals, then a section per car (nil: all time).
    public func reportHTML(_ month: CalendarMonth?) -> (page: String, summary: FamilySummary, trips: Int) {
        let family = summary(month)
        // The month is the family's: every section cut on one calendar.
        let zone = units.timeZone
        var tripCount = 0
        let sections = cars.map { car in
            let trips = car.trips.filter { trip in month.map { m in trip.startUTCMs.map { m.contains(utcMs: $0, in: zone) } ?? false } ?? true }
            tripCount += trips.count
            var carUnits = car.units
            carUnits.timeZone = zone
            return HTMLReport.FamilyContent.Car(label: car.label, units: carUnits, summary: carSummary(car, month), trips: trips)
        }
        return (HTMLReport.render(family: HTMLReport.FamilyContent(units: units, summary: family, cars: sections)), family, tripCount)
    }

    /// One car's figures per person (nil: all time), its months cut on the family's calendar.
    public func carSummary(_ car: Car, _ month: CalendarMonth?) -> FamilySummary {
        Self.summary(month, trips: car.trips, shares: Self.shares(car), currency: car.units.currency, in: units.timeZone)
    }

    /// A car's shares, each naming its bill's currency.
    static func shares(_ car: Car) -> [BillShare] {
        BillShare.all(car.splits).map { share in
            var share = share
            share.currency = share.currency ?? car.units.currency
            return share
        }
    }

    static func summary(_ month: CalendarMonth?, trips: [TripRow], shares: [BillShare], currency: String, in zone: TimeZoneRules) -> FamilySummary {
        var summary = FamilySummary(
            month: month, trips: trips, shares: shares, fullFills: [], ratedLitersPer100km: 0, currency: currency, in: zone)
        // The score's consumption term needs the car's rated consumption, which a pull does not carry.
        for i in summary.drivers.indices { summary.drivers[i].ecoScore = nil }
        return summary
    }
}
