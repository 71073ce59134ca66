import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelReports
import FairFuelStore

/// The typing mistakes `refuel` and `refuel edit` refuse before the store sees them: a time that
/// has not come yet or that the car's clock never showed, and a price per litre far from the car's own.
enum RefuelEntryChecks {
    /// The wall clock, or `$FAIRFUEL_NOW` (ISO 8601) when set: what the future check measures from,
    /// so that tests entering dated refuels do not depend on the day they run.
    static func nowUTCMs() throws -> Int64 {
        guard let text = ProcessEnvironment.value("FAIRFUEL_NOW"), !text.isEmpty else { return WallClock.utcMilliseconds() }
        do { return try ISO8601.parse(text).millisecondsSinceEpoch } catch { throw ValidationError("$FAIRFUEL_NOW: \(error)") }
    }

    /// The instant `--at` names (`RefuelTime.instant`: the car's wall clock without an offset, a skipped time refused).
    static func instant(_ text: String, units: DisplayUnits) throws -> Int64 {
        do { return try RefuelTime.instant(text, units: units) } catch { throw ValidationError("--at: \(error)") }
    }

    /// Refuses a refuel dated after now (`RefuelTime.refuseFuture`): a typo in the year or the month.
    static func refuseFuture(_ atUTCMs: Int64, units: DisplayUnits) throws {
        let now = try nowUTCMs()
        do { try RefuelTime.refuseFuture(atUTCMs, nowUTCMs: now, units: units) } catch { throw ValidationError("--at: \(error)") }
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
}
