import FairFuelDomain
import Foundation
import ReplaySupport
import Testing
import TestSupport

/// The real-life month's studies: other families' months, service kills and the population of
/// true cars. Each is off unless its script turns it on (scripts/study-real-life-sweep.sh,
/// scripts/study-kill.sh, scripts/study-car-population.sh): minutes each, never in CI.
@Suite("Real-life month studies", .serialized, .tags(.study))
struct RealLifeMonthStudies {
    /// Other families' months: the real-life month with seeds 1...N, each asserted as
    /// `realLifeMonth` is, and a line each. Off by default (about 9 s a month); run with
    /// FAIRFUEL_REAL_LIFE_SWEEP=30 swift test --filter realLifeSweep
    ///
    /// One allowance: a forgotten tap that the continuity rule gives back to its driver after the
    /// dongle was off for hours meets a receiver on a warm start (12 to 32 s to its first fix);
    /// when the car moves off before that fix, the trip begins at it, and what was driven before
    /// it (140 m in seed 63) stays outside the session. Up to 250 m of that is allowed here.
    @Test("the real-life month across families' months", .tags(.study), .enabled(if: ProcessInfo.processInfo.environment["FAIRFUEL_REAL_LIFE_SWEEP"] != nil))
    func realLifeSweep() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = UInt64(environment["FAIRFUEL_REAL_LIFE_SWEEP"] ?? "") ?? 30
        let days = Int(environment["FAIRFUEL_REAL_LIFE_DAYS"] ?? "") ?? RealLifeMonth.days
        var table = """
            real-life sweep (\(days) days a month), misallocated share of the bills:
            seed | FairFuel | model only | sessions' share | distance only | restarts | brown-outs | wrong-driver km | known drivers' km untracked

            """
        var shares: [Double] = [], totals: [Double] = []
        for seed in 1...max(1, count) {
            let outcome = try RealLifeMonth.replayMonth(seed: seed, days: days, realLife: FamilyMonth.RealLife(), cut: true)
            RealLifeMonth.expectTheRules(outcome, seed: seed, untrackedToleranceMeters: 250)
            shares.append(outcome.misallocation - outcome.modelOnly)
            totals.append(outcome.misallocation)
            table += "\(seed) | \(RealLifeMonth.format(outcome.misallocation * 100, 2)) % | \(RealLifeMonth.format(outcome.modelOnly * 100, 2)) % | "
                + "\(RealLifeMonth.format((outcome.misallocation - outcome.modelOnly) * 100, 2)) points | \(RealLifeMonth.format(outcome.distanceOnly * 100, 2)) % | "
                + "\(outcome.restarts) | \(outcome.brownOuts) | \(RealLifeMonth.format(outcome.wrongDriverMeters / 1000, 3)) | "
                + "\(RealLifeMonth.format(outcome.untrackedDriverMeters / 1000, 2))\n"
        }
        shares.sort()
        totals.sort()
        table += "FairFuel: median \(RealLifeMonth.format(totals[totals.count / 2] * 100, 2)) %, worst \(RealLifeMonth.format(totals.last! * 100, 2)) %; "
            + "the sessions' share: median \(RealLifeMonth.format(shares[shares.count / 2] * 100, 2)) points, worst \(RealLifeMonth.format(shares.last! * 100, 2))"
        print(table)
    }

    /// km to untracked and to a wrong driver per 100 service kills while driving (one kill in
    /// every trip): the same restarts-only month replayed whole and cut. Off by default (about
    /// three minutes for 40 days, which hold about 100 kills); run with
    /// FAIRFUEL_KILL_STUDY=1 swift test --filter killStudy (FAIRFUEL_KILL_STUDY_DAYS=N for another length).
    @Test("km lost per 100 kills", .tags(.study), .enabled(if: ProcessInfo.processInfo.environment["FAIRFUEL_KILL_STUDY"] == "1"))
    func killStudy() throws {
        let days = Int(ProcessInfo.processInfo.environment["FAIRFUEL_KILL_STUDY_DAYS"] ?? "") ?? 40
        let whole = try RealLifeMonth.replayMonth(seed: 4242, days: days, realLife: .restartsOnly, cut: false)
        let cut = try RealLifeMonth.replayMonth(seed: 4242, days: days, realLife: .restartsOnly, cut: true)
        #expect(whole.replayFailures.isEmpty && cut.replayFailures.isEmpty)
        let kills = Double(max(cut.restarts, 1))
        let untracked = (cut.untrackedDriverMeters - whole.untrackedDriverMeters) / 1000
        let wrong = (cut.wrongDriverMeters - whole.wrongDriverMeters) / 1000
        print("""
            kill study (seed 4242, \(days) days): \(cut.restarts) kills while driving over \
            \(RealLifeMonth.format(cut.drivenMeters / 1000)) km of driving
            untracked km of known drivers: \(RealLifeMonth.format(whole.untrackedDriverMeters / 1000, 2)) uncut, \
            \(RealLifeMonth.format(cut.untrackedDriverMeters / 1000, 2)) cut; wrong-driver km: \
            \(RealLifeMonth.format(whole.wrongDriverMeters / 1000, 3)) uncut, \(RealLifeMonth.format(cut.wrongDriverMeters / 1000, 3)) cut
            per 100 kills: \(RealLifeMonth.format(untracked / kills * 100, 2)) km to untracked, \
            \(RealLifeMonth.format(wrong / kills * 100, 3)) km to a wrong driver
            """)
    }

    /// The real-life month of `realLifeMonth` with each car of `TruthCarPopulation` (and the
    /// scenarios' own car) as the true car: whether FairFuel's error depends on which real car the
    /// family drives. Asserted per car as `realLifeMonth` asserts for its one, with FairFuel on its
    /// default vehicle profile as there; then reported again with the family having told FairFuel
    /// the car's mass and engine size (its idle rate). Off by default (two months per car, about three minutes);
    /// run with FAIRFUEL_CAR_STUDY=1 swift test --filter carPopulationStudy
    /// (FAIRFUEL_REAL_LIFE_DAYS=N for another length, FAIRFUEL_CAR_STUDY_SEED=N for another month).
    @Test("the real-life month across true cars", .tags(.study), .enabled(if: ProcessInfo.processInfo.environment["FAIRFUEL_CAR_STUDY"] == "1"))
    func carPopulationStudy() throws {
        let environment = ProcessInfo.processInfo.environment
        let days = Int(environment["FAIRFUEL_REAL_LIFE_DAYS"] ?? "") ?? RealLifeMonth.days
        let seed = UInt64(environment["FAIRFUEL_CAR_STUDY_SEED"] ?? "") ?? 2026
        let epa = try EPACycleRatios()
        let cars = [(name: "scenarios' car, 1.5 L compact (WillansCar())", car: WillansCar(), member: false)]
            + TruthCarPopulation.members.map { ($0.name, $0.car, true) }
        var table = """
            car study (real-life month, seed \(seed), \(days) days), misallocated share of the bills; \
            FairFuel on its default profile, then told the car's mass and engine size:
            car | highway/city | EPA rank | FairFuel | model only | distance only | FairFuel - model only | \
            told: FairFuel | told: model only

            """
        /// FairFuel's misallocation with each car of the population, default profile and told.
        var fairFuel: [Double] = [], fairFuelTold: [Double] = []
        for (name, car, member) in cars {
            let ratio = epa.highwayRatio(car, .normal)
            let outcome = try RealLifeMonth.replayMonth(seed: seed, days: days, realLife: FamilyMonth.RealLife(), cut: true, car: car)
            let told = try RealLifeMonth.replayMonth(seed: seed, days: days, realLife: FamilyMonth.RealLife(), cut: true, car: car, toldTheCar: true)
            if member {
                fairFuel.append(outcome.misallocation)
                fairFuelTold.append(told.misallocation)
            }
            table += "\(name) | \(RealLifeMonth.format(ratio, 3)) | \(RealLifeMonth.format(epa.highwayRank(ratio) * 100, 0)) % | "
                + "\(RealLifeMonth.format(outcome.misallocation * 100, 2)) % | \(RealLifeMonth.format(outcome.modelOnly * 100, 2)) % | "
                + "\(RealLifeMonth.format(outcome.distanceOnly * 100, 2)) % | \(RealLifeMonth.format((outcome.misallocation - outcome.modelOnly) * 100, 2)) points | "
                + "\(RealLifeMonth.format(told.misallocation * 100, 2)) % | \(RealLifeMonth.format(told.modelOnly * 100, 2)) %\n"
            #expect(outcome.replayFailures.isEmpty && told.replayFailures.isEmpty, "\(name): \(outcome.replayFailures + told.replayFailures)")
            // Known: on its default profile FairFuel loses to distance-only on the small crossover
            // (2.38 % against 2.30 % at seed 2026, 2.34 against 2.01 at seed 7): a 1.2 L engine in
            // a tall body is far from the default profile's car. Told its mass and engine size it
            // wins on every car, and that is asserted below.
            withKnownIssue(
                "the default vehicle profile loses to distance-only on the p90 small crossover", isIntermittent: true
            ) {
                #expect(outcome.misallocation < outcome.distanceOnly, "\(name): FairFuel beats distance-only with perfect sessions")
            } when: {
                name.hasPrefix("p90 ")
            }
            #expect(told.misallocation < told.distanceOnly, "\(name), told the car: FairFuel beats distance-only with perfect sessions")
            #expect(told.misallocation - told.modelOnly <= 0.005,
                    "\(name), told the car: misallocated \(told.misallocation * 100) % of the bills, the model alone \(told.modelOnly * 100) %")
            #expect(outcome.misallocation - outcome.modelOnly <= 0.005,
                    "\(name): misallocated \(outcome.misallocation * 100) % of the bills, the model alone \(outcome.modelOnly * 100) %")
        }
        func summary(_ values: [Double]) -> String {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            return "median \(RealLifeMonth.format(median * 100, 2)) %, range \(RealLifeMonth.format(sorted.first! * 100, 2)) % to \(RealLifeMonth.format(sorted.last! * 100, 2)) %"
        }
        table += "FairFuel over the population's \(fairFuel.count) cars: \(summary(fairFuel)); told the car: \(summary(fairFuelTold))"
        print(table)
    }
}
