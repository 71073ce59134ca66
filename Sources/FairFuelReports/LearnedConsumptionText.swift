import FairFuelCore
import FairFuelDomain
import FairFuelStore

/// What the car has learnt of its drivers from full tanks, for `vehicle show` and `summary`.
public enum LearnedConsumptionText {
    /// One line, e.g. "learned from 14 full tanks: Anna ×1.06, Ben ×0.97; adopted 2026-05-02: …".
    public static func text(_ learned: LearnedConsumption?, units: DisplayUnits, neededPeriods: Int = DriverFactorLearner().minimumPeriods) -> String {
        guard let learned else { return "learned consumption: not yet: no full tank to full tank yet, \(neededPeriods) needed" }
        let fit = learned.fit
        guard fit.outcome != .tooFewPeriods else {
            return "learned consumption: not yet: \(tanks(fit.periodsUsed)) of the \(fit.periodsNeeded) needed"
        }
        var text = "learned consumption: from \(tanks(fit.periodsUsed)): " + factorsText(learned)
        let errors = "held-out error \(percent(fit.heldOutErrorLearned)) vs \(percent(fit.heldOutErrorOneFactor)) for one factor"
        if fit.isAdopted {
            text += "; adopted \(units.dateText(utcMs: learned.atUTCMs)): \(errors); open bills use it"
        } else {
            text += "; not adopted: \(errors) (it must be \(JSONLine.formatFixed(DriverFactorLearner().margin * 100, decimals: 0)) % better)"
        }
        return text
    }

    /// The same as one JSON object.
    public static func json(_ learned: LearnedConsumption?) -> String {
        var j = JSONLine()
        j.add("outcome", learned?.fit.outcome.rawValue ?? DriverFactorFit.Outcome.tooFewPeriods.rawValue)
        j.add("full_tanks", learned?.fit.periodsUsed ?? 0)
        j.add("full_tanks_needed", learned?.fit.periodsNeeded ?? DriverFactorLearner().minimumPeriods)
        j.add("at_utc_ms", learned?.atUTCMs)
        j.add("held_out_error", learned?.fit.heldOutErrorLearned, decimals: 5)
        j.add("held_out_error_one_factor", learned?.fit.heldOutErrorOneFactor, decimals: 5)
        j.addRaw("factors", json: JSONLine.array((learned.map(sortedFactors) ?? []).map { party in
            var o = JSONLine()
            o.add("driver_id", party.driver?.rawValue)
            o.add("driver", party.name)
            o.add("factor", party.factor, decimals: 4)
            return o.string
        }))
        return j.string
    }

    static func sortedFactors(_ learned: LearnedConsumption) -> [(driver: DriverID?, name: String, factor: Double)] {
        learned.fit.factors.map { driver, factor in
            (driver, driver.map { learned.driverNames[$0] ?? "removed driver \($0.rawValue)" } ?? "untracked", factor)
        }.sorted { ($0.driver?.rawValue ?? .max) < ($1.driver?.rawValue ?? .max) }
    }

    static func factorsText(_ learned: LearnedConsumption) -> String {
        sortedFactors(learned).map { "\(TerminalText.escaped($0.name)) ×\(JSONLine.formatFixed($0.factor, decimals: 2))" }.joined(separator: ", ")
    }

    static func tanks(_ count: Int) -> String { count == 1 ? "1 full tank" : "\(count) full tanks" }

    static func percent(_ value: Double?) -> String {
        value.map { JSONLine.formatFixed($0 * 100, decimals: 1) + " %" } ?? "-"
    }
}
