import FairFuelCore
@testable import FairFuelDomain
import Testing
import TestSupport

@Suite("driver factor learner")
struct DriverFactorLearnerTests {
    static let anna = DriverID(1)
    static let ben = DriverID(2)

    /// Full-to-full periods of a car whose true fuel is `trueFactors` times the model's per party,
    /// times the car's `carFactor`, with the pump's shut-off (0 to 2 L at each full fill) as noise.
    static func periods(count: Int, trueFactors: [DriverID?: Double], carFactor: Double = 1.08, seed: UInt64) -> [ConsumptionPeriod] {
        var random = SeededGenerator(seed: seed)
        var shortfall = random.uniform(0...2)
        return (0..<count).map { _ in
            let model: [DriverID?: Double] = [
                anna: random.uniform(5...30), ben: random.uniform(5...30), nil: random.chance(0.3) ? random.uniform(0.5...3) : 0,
            ]
            let next = random.uniform(0...2)
            let burnt = carFactor * model.reduce(0) { $0 + $1.value * (trueFactors[$1.key] ?? 1) }
            defer { shortfall = next }
            return ConsumptionPeriod(pumpedLiters: burnt + shortfall - next, modelLiters: model)
        }
    }

    @Test func driversWhoTrulyDifferAreLearntAndAdopted() {
        let truth: [DriverID?: Double] = [Self.anna: 1.10, Self.ben: 0.95]
        for seed: UInt64 in [1, 2, 3] {
            let fit = DriverFactorLearner().fit(Self.periods(count: 30, trueFactors: truth, seed: seed))
            #expect(fit.outcome == .adopted, "seed \(seed): \(fit)")
            #expect(fit.periodsUsed == 30)
            // Relative to each other, which is all a split sees (the shut-off is about 2 % of a period).
            let ratio = (fit.factors[Self.anna] ?? 0) / (fit.factors[Self.ben] ?? 1)
            #expect(abs(ratio - 1.10 / 0.95) < 0.06, "seed \(seed): Anna over Ben \(ratio)")
            #expect(abs((fit.factors[Self.anna] ?? 0) - 1.10 / 1.025) < 0.05, "seed \(seed): \(fit.factors)")
            #expect(fit.appliedFactor(for: Self.anna) == fit.factors[Self.anna])
            #expect((fit.heldOutErrorLearned ?? 1) < (fit.heldOutErrorOneFactor ?? 0))
        }
    }

    @Test func noiseAloneIsNotAdopted() {
        var adopted = 0
        for seed: UInt64 in 1...20 {
            let fit = DriverFactorLearner().fit(Self.periods(count: 20, trueFactors: [:], seed: seed))
            #expect(fit.outcome != .tooFewPeriods)
            if fit.isAdopted { adopted += 1 } else { #expect(fit.appliedFactor(for: Self.anna) == 1) }
        }
        #expect(adopted <= 2, "noise adopted in \(adopted) of 20 cars")
    }

    @Test func fewPeriodsAreNotTried() {
        let fit = DriverFactorLearner().fit(Self.periods(count: 5, trueFactors: [Self.anna: 1.2], seed: 4))
        #expect(fit.outcome == .tooFewPeriods)
        #expect(fit.periodsUsed == 5 && fit.periodsNeeded == 8)
        #expect(fit.factors.isEmpty && fit.heldOutErrorLearned == nil)
        #expect(fit.appliedFactor(for: Self.anna) == 1)
        #expect(DriverFactorLearner().fit([]).outcome == .tooFewPeriods)
    }

    @Test func periodsThatMeasureNothingAreLeftOut() {
        var periods = Self.periods(count: 6, trueFactors: [:], seed: 5)
        periods.insert(ConsumptionPeriod(pumpedLiters: 4, modelLiters: [Self.anna: 4]), at: 2)
        periods.append(ConsumptionPeriod(pumpedLiters: 40, modelLiters: [:]))
        periods.append(ConsumptionPeriod(pumpedLiters: .nan, modelLiters: [Self.anna: 30]))
        periods.append(ConsumptionPeriod(pumpedLiters: 40, modelLiters: [Self.anna: -3, Self.ben: 30]))
        #expect(DriverFactorLearner().fit(periods).periodsUsed == 6)
    }

    @Test func aSingularDesignIsRegularisedNotACrash() {
        // Cleo drives in one period only, and Anna and Ben always in the same proportion.
        var periods = (0..<10).map { index in
            ConsumptionPeriod(pumpedLiters: 40 + Double(index % 3), modelLiters: [Self.anna: 20, Self.ben: 10])
        }
        periods[4].modelLiters[DriverID(3)] = 8
        let fit = DriverFactorLearner().fit(periods)
        #expect(fit.outcome != .tooFewPeriods)
        #expect(fit.factors.count == 3)
        for factor in fit.factors.values { #expect(factor.isFinite && (0.7...1.4).contains(factor), "\(fit.factors)") }
    }

    @Test func theSolveIsExact() {
        // [[4, 2], [2, 3]] x = [2, 1] → x = [0.5, 0]
        let x = DriverFactorLearner.choleskySolve([4, 2, 2, 3], [2, 1], size: 2)
        #expect(x.map { abs($0[0] - 0.5) < 1e-12 && abs($0[1]) < 1e-12 } == true)
        #expect(DriverFactorLearner.choleskySolve([1, 2, 2, 1], [1, 1], size: 2) == nil, "not positive definite")
    }
}
