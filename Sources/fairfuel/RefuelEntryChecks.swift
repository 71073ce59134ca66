import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelStore

/// What `refuel` and `refuel edit` read from the command line: the instant `--at` names (refusing one the
/// car's clock never showed) and the clock the store checks a typed date against (its typo checks, a date
/// in the future and a price far from the car's usual one, are the store's: `TripStore.refuseEntryMistakes`).
enum RefuelEntryChecks {
    /// The wall clock, or `$FAIRFUEL_NOW` (ISO 8601) when set: what the store's future check measures from,
    /// so that tests entering dated refuels do not depend on the day they run.
    static func nowUTCMs() throws -> Int64 {
        guard let text = ProcessEnvironment.value("FAIRFUEL_NOW"), !text.isEmpty else { return WallClock.utcMilliseconds() }
        do { return try ISO8601.parse(text).millisecondsSinceEpoch } catch { throw ValidationError("$FAIRFUEL_NOW: \(error)") }
    }

    /// The instant `--at` names (`RefuelTime.instant`: the car's wall clock without an offset, a skipped time refused).
    static func instant(_ text: String, units: DisplayUnits) throws -> Int64 {
        do { return try RefuelTime.instant(text, units: units) } catch { throw ValidationError("--at: \(error)") }
    }
}
