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

    /// The instant `--at` names: an offset or `Z` in the text wins; without one it is the car's wall
    /// clock, and a time that clock skips (the spring change) is refused rather than moved past the gap.
    /// In the autumn overlap, when the hour happens twice, it is the first of the two (`TimeZoneRules.utcMs`).
    static func instant(_ text: String, units: DisplayUnits) throws -> Int64 {
        let instant: Int64
        let wall: Int64?
        do {
            instant = try ISO8601.parse(text, localIn: units.timeZone).millisecondsSinceEpoch
            wall = try ISO8601.wallClockWithoutOffset(text)
        } catch {
            throw ValidationError("--at: \(error)")
        }
        if let wall, let gap = units.timeZone.gap(containingLocalMs: wall) {
            let from = ISO8601.dateMinute(utcMs: gap.fromLocalMs)
            let to = ISO8601.dateMinute(utcMs: gap.toLocalMs)
            // A date alone is its midnight: the offset goes after a time.
            let typed = text.utf8.count == 10 ? text + "T00:00" : text
            throw ValidationError(
                "--at: \(text) does not exist in \(units.timeZone.name): the clocks jump from \(from) to \(to), "
                    + "so no clock there showed it. Give an explicit offset, e.g. "
                    + "\(typed)\(Self.offsetText(gap.offsetBeforeSeconds)) or \(typed)\(Self.offsetText(gap.offsetAfterSeconds)), "
                    + "or a time outside the gap")
        }
        return instant
    }

    static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
    }
}
