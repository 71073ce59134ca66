import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelService
import FairFuelSimulation
import FairFuelStore

/// What the family commands read from the store, converted once to the export values.
struct FamilyData {
    var vehicle: VehicleProfile
    var units: DisplayUnits
    var trips: [TripRow]
    var splits: [RefuelSplit]
    var fullFills: [FullFillPeriod]

    init(_ db: TripStore) throws {
        do {
            vehicle = try db.vehicle()
            units = DisplayUnits(vehicle: vehicle)
            trips = try db.sessions().map(TripRow.init)
            splits = try db.splits()
            fullFills = try db.fullFillPeriods()
        } catch {
            throw UserFacingError("cannot read the store: \(error)")
        }
    }

    var shares: [BillShare] { BillShare.all(splits) }

    func summary(_ month: CalendarMonth?) -> FamilySummary {
        FamilySummary(
            month: month, trips: trips, shares: shares, fullFills: fullFills, ratedLitersPer100km: vehicle.ratedLitersPer100km,
            currency: vehicle.currency, in: units.timeZone)
    }

    /// The month of the latest trip or refuel: a report's default (from the data, not the clock).
    var latestMonth: CalendarMonth? {
        let latest = max(trips.compactMap(\.startUTCMs).max() ?? .min, splits.map(\.refuel.atUTCMs).max() ?? .min)
        return latest == .min ? nil : CalendarMonth(utcMs: latest, in: units.timeZone)
    }
}

/// `--month YYYY-MM`, parsed with a clear error.
func parseMonth(_ text: String?) throws -> CalendarMonth? {
    guard let text else { return nil }
    let month: CalendarMonth
    do { month = try CalendarMonth.parse(text) } catch { throw ValidationError("--month: \(error)") }
    // The same years as every other date the CLI takes (ArgumentValidation: 2000 to 2100).
    do { _ = try ArgumentValidation.inYears(month.startUTCMs, text: text, argument: "--month") } catch { throw ValidationError("\(error)") }
    return month
}

/// Writes `text` to `path` (replacing it), or to standard output when `path` is nil.
func writeOutput(_ text: String, to path: String?) throws {
    guard let path else {
        print(text, terminator: "")
        return
    }
    do {
        // A plain buffered text file, synced on close (the capture writer is exactly that).
        let file = try CaptureFileWriter(path: path)
        try file.write(text)
        try file.close()
    } catch {
        throw UserFacingError("\(error)")
    }
}
