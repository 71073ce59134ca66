import FairFuelCore
import FairFuelDomain
import Foundation
import Testing
import TestSupport

/// The real-life family month run on for a car's year (360 days, one family, one car), the
/// fuel model alone with perfect sessions (`CostShares.modelOnly`: FairFuel's model on the
/// true speeds), the pump's shut-off as noise (0 to 2 L short of full at each full fill).
/// Each month's bills are settled at its end, as a family pays; until then an open bill uses
/// the newest fit, which has seen the month's full tanks (the store re-splits open bills at each
/// one). Learning off: each bill in proportion to the model's litres (what one factor gives);
/// on: each party's litres times its learnt factor once `DriverFactorLearner` adopts a fit.
/// Printed per month of the car's life: the median and the p10/p90 of the families'
/// misallocated share of the month's bills, both ways; and the months 1 to 3 and 7 to 12.
/// Off by default (20 to 45 s a family in a debug build); `scripts/study-car-year.sh`, or
/// FAIRFUEL_CAR_YEAR_STUDY=N swift test --filter carYearStudy (families with seeds 1...N).
@Suite("car year study", .tags(.study))
struct CarYearStudyTests {
    static let days = 360
    static let daysPerMonth = 30
    static let fullFillShortfallLiters = 0.0...2.0

    /// One family's year: per month of the car's life, the misallocated share both ways (nil: no bill that month).
    struct FamilyYear {
        var off: [Double?]
        var on: [Double?]
        /// With each party's true factor over the whole year (true over model litres): the best any
        /// one factor per party could do, known only in hindsight.
        var oracle: [Double?]
        var oracleFactors: [Party: Double]
        var lastFit: DriverFactorFit
    }

    /// One family's year as its bills saw it: each refuel's true and model litres by party.
    struct Year {
        var periods: [ScenarioTruth.Period]
        var fair: [CostShares.Split]
        var modelOnly: [CostShares.Split]
        /// The pump's shortfall below full at each full fill (the baseline's first).
        var shortfalls: [Double]
    }

    static func year(seed: UInt64, car: WillansCar = WillansCar()) -> Year {
        let truth = FamilyMonth.modelTruth(seed: seed, days: days, car: car)
        // The first bill is the store's baseline (fuel before tracking began), as in the month replays.
        let periods = Array(truth.periods.filter { $0.refuel != nil }.dropFirst())
        var pump = SeededGenerator(seed: seed ^ 0xF111)
        let shortfalls = (0...periods.count).map { _ in pump.uniform(fullFillShortfallLiters) }
        return Year(periods: periods, fair: Array(CostShares.truth(truth).dropFirst()),
                    modelOnly: Array(CostShares.modelOnly(truth).dropFirst()), shortfalls: shortfalls)
    }

    static func run(_ year: Year, learner: DriverFactorLearner = DriverFactorLearner()) -> FamilyYear {
        let periods = year.periods
        var shortfalls = year.shortfalls.makeIterator()
        var previousShortfall = shortfalls.next() ?? 0
        var seen: [ConsumptionPeriod] = []
        var sinceFull = ConsumptionPeriod(pumpedLiters: 0, modelLiters: [:])
        let months = days / daysPerMonth
        var off = [Double?](repeating: nil, count: months), on = [Double?](repeating: nil, count: months)
        var oracle = on
        var trueLiters: [Party: Double] = [:], modelLiters: [Party: Double] = [:]
        for period in periods {
            for (party, liters) in period.liters { trueLiters[party, default: 0] += liters }
            for (party, liters) in period.modelLiters { modelLiters[party, default: 0] += liters }
        }
        let oracleFactors = modelLiters.reduce(into: [Party: Double]()) { result, entry in
            result[entry.key] = entry.value > 0 ? (trueLiters[entry.key] ?? 0) / entry.value : 1
        }
        var fit = learner.fit([])
        for index in 0..<months {
            let end = Int64((index + 1) * daysPerMonth) * 86_400_000
            let start = Int64(index * daysPerMonth) * 86_400_000
            // The last month's bills include the fill-up at home after the last day.
            let bills = periods.indices.filter { bill in
                let at = periods[bill].refuel!.atMs
                return at >= start && (at < end || index == months - 1)
            }
            for bill in bills {
                let period = periods[bill]
                sinceFull.pumpedLiters += period.liters.values.reduce(0, +)
                for (party, liters) in period.modelLiters { sinceFull.modelLiters[party.driverID, default: 0] += liters }
                guard period.refuel!.fullTank else { continue }
                let next = shortfalls.next() ?? 0
                sinceFull.pumpedLiters += previousShortfall - next
                previousShortfall = next
                seen.append(sinceFull)
                sinceFull = ConsumptionPeriod(pumpedLiters: 0, modelLiters: [:])
            }
            fit = learner.fit(seen)
            guard !bills.isEmpty else { continue }
            func split(_ bill: Int, factor: (Party) -> Double) -> CostShares.Split {
                let period = periods[bill]
                let shares = period.modelLiters.map { party, liters in FuelShare(driver: party.driverID, fuel: Liters(liters * factor(party))) }
                var split: CostShares.Split = [:]
                for share in CostSplitter.split(bill: period.refuel!.cost, fuel: shares, untracked: .owner) {
                    split[Party(share.driver), default: 0] += share.cost.value
                }
                return split
            }
            let learnt = bills.map { split($0) { fit.appliedFactor(for: $0.driverID) } }
            let truthSplits = bills.map { year.fair[$0] }
            oracle[index] = CostShares.misallocation(bills.map { split($0) { oracleFactors[$0] ?? 1 } }, truth: truthSplits)
            off[index] = CostShares.misallocation(bills.map { year.modelOnly[$0] }, truth: truthSplits)
            on[index] = CostShares.misallocation(learnt, truth: truthSplits)
        }
        return FamilyYear(off: off, on: on, oracle: oracle, oracleFactors: oracleFactors, lastFit: fit)
    }

    static var variants: [(String, DriverFactorLearner)] {
        var list: [(String, DriverFactorLearner)] = []
        for margin in [0.0, 0.02, 0.05, 0.1] {
            for minimum in [6, 8, 12] {
                for lambdas in [[0.003, 0.01, 0.03, 0.1, 0.3, 1, 3, 10], [0.1, 0.2, 0.5, 1, 2, 5]] {
                    var learner = DriverFactorLearner()
                    learner.margin = margin
                    learner.minimumPeriods = minimum
                    learner.ridgeStrengths = lambdas
                    list.append(("margin \(margin) min \(minimum) ridge from \(lambdas[0])", learner))
                }
            }
        }
        return list
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        EPACycleRatios.percentile(values.sorted(), p)
    }

    static func percent(_ value: Double) -> String { String(format: "%.2f %%", value * 100) }

    static func spread(_ values: [Double]) -> String {
        "median \(percent(percentile(values, 0.5))) (p10 \(percent(percentile(values, 0.1))), p90 \(percent(percentile(values, 0.9))))"
    }

    @Test("a car's year with the learning off and on", .enabled(if: ProcessInfo.processInfo.environment["FAIRFUEL_CAR_YEAR_STUDY"] != nil))
    func carYearStudy() throws {
        let count = UInt64(ProcessInfo.processInfo.environment["FAIRFUEL_CAR_YEAR_STUDY"] ?? "") ?? 10
        var years: [FamilyYear] = []
        var report = "car year study (\(count) families, seeds 1...\(count), \(Self.days) days, model alone with perfect sessions, pump shut-off 0-2 L)\n"
        report += "seed | last fit | full tanks | factors | true factors over the year\n"
        let families = (1...max(1, count)).map { Self.year(seed: $0) }
        for (seed, family) in zip(1...max(1, count), families) {
            let year = Self.run(family)
            years.append(year)
            let factors = year.lastFit.factors.sorted { ($0.key?.rawValue ?? .max) < ($1.key?.rawValue ?? .max) }
                .map { "\(Party($0.key)) ×\(String(format: "%.3f", $0.value))" }.joined(separator: ", ")
            let trueFactors = year.oracleFactors.sorted { $0.key < $1.key }.map { "\($0.key) ×\(String(format: "%.3f", $0.value))" }
                .joined(separator: ", ")
            report += "\(seed) | \(year.lastFit.outcome.rawValue) | \(year.lastFit.periodsUsed) | \(factors) | \(trueFactors)\n"
        }
        report += "month | one factor | learnt | families learnt better | adopted\n"
        var worseMedians: [Int] = []
        let months = Self.days / Self.daysPerMonth
        for index in 0..<months {
            let pairs = years.compactMap { year in year.off[index].flatMap { off in year.on[index].map { (off, $0) } } }
            guard !pairs.isEmpty else { continue }
            let offs = pairs.map(\.0), ons = pairs.map(\.1)
            let better = pairs.filter { $0.1 < $0.0 }.count
            let adopted = pairs.filter { $0.1 != $0.0 }.count
            if Self.percentile(ons, 0.5) > Self.percentile(offs, 0.5) + 1e-9 { worseMedians.append(index + 1) }
            report += "\(index + 1) | \(Self.spread(offs)) | \(Self.spread(ons)) | \(better) of \(pairs.count) | \(adopted)\n"
        }
        for (label, range) in [("months 1-3", 0..<3), ("months 7-12", 6..<12)] {
            let offs = years.flatMap { year in range.compactMap { year.off[$0] } }
            let ons = years.flatMap { year in range.compactMap { year.on[$0] } }
            let oracles = years.flatMap { year in range.compactMap { year.oracle[$0] } }
            report += "\(label): one factor \(Self.spread(offs)); learnt \(Self.spread(ons)); "
                + "each party's true factor over the year, in hindsight \(Self.spread(oracles))\n"
        }
        // What else was tried on the same years (FAIRFUEL_CAR_YEAR_VARIANTS=1).
        if ProcessInfo.processInfo.environment["FAIRFUEL_CAR_YEAR_VARIANTS"] == "1" {
            var quiet = DriverFactorLearner()
            quiet.margin = 0
            let exactPump = families.map { family in
                var family = family
                family.shortfalls = family.shortfalls.map { _ in 0 }
                return family
            }
            for (label, learner, years) in Self.variants.map({ ($0.0, $0.1, families) })
                + [("default, no pump noise", DriverFactorLearner(), exactPump), ("margin 0, no pump noise", quiet, exactPump)]
            {
                let runs = years.map { Self.run($0, learner: learner) }
                for (range, name) in [(0..<3, "1-3"), (6..<12, "7-12")] {
                    let offs = runs.flatMap { year in range.compactMap { year.off[$0] } }
                    let ons = runs.flatMap { year in range.compactMap { year.on[$0] } }
                    report += "variant \(label), months \(name): one factor \(Self.spread(offs)); learnt \(Self.spread(ons))\n"
                }
            }
        }
        print(report)
        #expect(worseMedians.isEmpty, "the learnt factors' median is worse than the one factor's in months \(worseMedians)")
    }
}
