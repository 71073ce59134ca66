import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelStore

/// The typing mistakes `refuel` and `refuel edit` refuse before the store sees them: a time that
/// has not come yet or that the car's clock never showed, and a price per litre far from the car's own.
enum RefuelEntryChecks {
    /// How far past the wall clock a refuel may be dated: a pump's or a phone's clock a little ahead.
    static let futureToleranceMs: Int64 = 10 * 60_000

    /// The wall clock, or `$FAIRFUEL_NOW` (ISO 8601) when set: what the future check measures from,
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

    /// Refuses a refuel dated after now (beyond the tolerance): a typo in the year or the month.
    static func refuseFuture(_ atUTCMs: Int64, units: DisplayUnits) throws {
        let now = try nowUTCMs()
        guard atUTCMs > now + futureToleranceMs else { return }
        throw ValidationError(
            "--at: \(units.minuteText(utcMs: atUTCMs)) (\(units.timeZoneText)) is in the future (now is \(units.minuteText(utcMs: now))); "
                + "a refuel is entered once it happened: check the date")
    }

    /// Refuses a price per litre taken for a typo (`UsualRefuelPrice`: far from the car's usual one, or
    /// before it has one, outside what fuel costs anywhere in its currency), unless forced.
    static func refuseUnusualPrice(
        cost: MinorUnits, liters: Double, atUTCMs: Int64, currency: String, excluding: Int64? = nil,
        log: [(id: Int64, refuel: RefuelInput)], vehicleCurrency: String, units: DisplayUnits, force: Bool
    ) throws {
        guard !force,
              let finding = UsualRefuelPrice.check(
                  cost: cost, liters: liters, atUTCMs: atUTCMs, currency: currency, excluding: excluding, log: log, vehicleCurrency: vehicleCurrency)
        else { return }
        throw UserFacingError(
            UsualPriceText.message(finding, cost: cost, liters: liters, units: units)
                + ": check the cost and the volume, or add --force if they are right; nothing was changed")
    }

    static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
    }
}
