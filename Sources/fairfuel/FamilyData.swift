import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelService
import FairFuelSimulation
import FairFuelStore

/// What the family commands read from the store (`StoreBook`, shared with the web app).
typealias FamilyData = StoreBook

extension StoreBook {
    /// The store's book in the vehicle's units, with a clear message when it cannot be read.
    init(_ db: TripStore) throws {
        do {
            try self.init(db, units: DisplayUnits(vehicle: try db.vehicle()))
        } catch {
            throw UserFacingError("cannot read the store: \(error)")
        }
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
