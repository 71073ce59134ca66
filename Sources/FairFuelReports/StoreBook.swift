import FairFuelCore
import FairFuelStore

/// What the family's pages and commands read from one store, converted once to the export values:
/// `fairfuel summary` and `report` and the web app read the same figures the same way.
public struct StoreBook: Sendable {
    public var vehicle: VehicleProfile
    public var units: DisplayUnits
    public var trips: [TripRow]
    public var splits: [RefuelSplit]
    public var fullFills: [FullFillPeriod]

    /// `units`: how the family reads the vehicle's figures (the caller loads its time zone).
    public init(_ db: TripStore, units: DisplayUnits) throws(StoreError) {
        vehicle = try db.vehicle()
        self.units = units
        trips = try db.sessions().map(TripRow.init)
        splits = try db.splits()
        fullFills = try db.fullFillPeriods()
    }

    public var shares: [BillShare] { BillShare.all(splits) }

    public func summary(_ month: CalendarMonth?) -> FamilySummary {
        FamilySummary(
            month: month, trips: trips, shares: shares, fullFills: fullFills, ratedLitersPer100km: vehicle.ratedLitersPer100km,
            currency: vehicle.currency, in: units.timeZone)
    }

    /// The month of the latest trip or refuel: a report's default (from the data, not the clock).
    public var latestMonth: CalendarMonth? {
        let latest = max(trips.compactMap(\.startUTCMs).max() ?? .min, splits.map(\.refuel.atUTCMs).max() ?? .min)
        return latest == .min ? nil : CalendarMonth(utcMs: latest, in: units.timeZone)
    }

    /// The month's self-contained HTML report (all time with nil) and the figures it shows.
    public func report(_ month: CalendarMonth?) -> (page: String, summary: FamilySummary, trips: [TripRow]) {
        let summary = summary(month)
        let zone = units.timeZone
        let trips = trips.filter { trip in month.map { m in trip.startUTCMs.map { m.contains(utcMs: $0, in: zone) } ?? false } ?? true }
        let trend = fullFills.filter { period in month.map { period.toUTCMs < $0.next.startUTCMs(in: zone) } ?? true }
        let page = HTMLReport.render(HTMLReport.Content(
            vehicleName: vehicle.name, units: units, ratedLitersPer100km: vehicle.ratedLitersPer100km,
            summary: summary, trips: trips, trend: trend))
        return (page, summary, trips)
    }
}
