import FairFuelCore
import RealModule

/// Learns one fuel factor per party (each driver, untracked driving) from the car's
/// full-to-full periods, over its life: the single calibration factor cannot see what sets
/// drivers apart beyond the speed trace (style, gears, air conditioning).
///
/// Each period p says pumped_p ≈ c · Σ_j r_j · model_pj, where c is the car's one factor over
/// the periods (pooled: Σ pumped / Σ model) and r_j a party's factor around it. With x_pj =
/// c · model_pj / pumped_p (about each party's share of the period), u_j = r_j − 1 solves the
/// ridge problem min Σ_p (1 − Σ_j x_pj − Σ_j u_j x_pj)² + λ Σ_j u_j²: toward the one factor
/// (u = 0), which is what λ → ∞ gives. λ is chosen by rolling-origin cross-validation (fit on
/// periods 1…k, predict period k+1) and the fit is adopted only when its held-out error beats
/// the one factor's on the same periods by `margin`.
public struct DriverFactorLearner: Sendable, Equatable {
    /// Periods before the learner tries at all: with fewer, the cross-validation has too few
    /// held-out periods to tell a real difference from the pump's noise (the car year study).
    public var minimumPeriods = 8
    /// The smallest training set of a cross-validation fold.
    public var minimumTrainingPeriods = 3
    /// The most recent periods used (about two years of a family car): the fit follows who drives now.
    public var maximumPeriods = 60
    /// The fit must cut the one factor's held-out error by this share to be adopted.
    public var margin = 0.1
    /// Ridge strengths tried, in units of a period's squared relative error: at least 0.1, the
    /// pump's noise (about 2 % of a tank) over a prior of about ±6 % per driver; weaker ones
    /// fitted the noise and were adopted by chance in the car year study.
    public var ridgeStrengths: [Double] = [0.1, 0.2, 0.5, 1, 2, 5]
    /// Factors are held in this band (a party's style does not halve or double its fuel).
    public var factorBand: ClosedRange<Double> = 0.7...1.4
    /// Periods with less pumped fuel than this measure nothing (a pump's shut-off varies by a litre or so).
    public var minimumLiters = 10.0

    public init() {}

    /// The fit over `periods` (oldest first); bad periods (too little fuel, no model fuel, not finite) are left out.
    public func fit(_ periods: [ConsumptionPeriod]) -> DriverFactorFit {
        let usable = Array(periods.filter(isUsable).suffix(maximumPeriods))
        guard usable.count >= max(minimumPeriods, minimumTrainingPeriods + 1) else {
            return DriverFactorFit(outcome: .tooFewPeriods, periodsUsed: usable.count, periodsNeeded: minimumPeriods)
        }
        let parties = Array(Set(usable.flatMap(\.modelLiters.keys))).sorted { ($0?.rawValue ?? -1) < ($1?.rawValue ?? -1) }
        let design = usable.map { period in parties.map { period.modelLiters[$0] ?? 0 } }
        let pumped = usable.map(\.pumpedLiters)
        var oneFactorSquares = 0.0
        var learnedSquares = [Double](repeating: 0, count: ridgeStrengths.count)
        var folds = 0
        for held in minimumTrainingPeriods..<usable.count {
            let training = 0..<held
            let oneFactor = Self.pooledFactor(design[training], pumped[training])
            let model = design[held].reduce(0, +)
            oneFactorSquares += Self.square((oneFactor * model - pumped[held]) / pumped[held])
            for (index, lambda) in ridgeStrengths.enumerated() {
                let factors = fitFactors(design[training], pumped[training], lambda: lambda)
                let predicted = oneFactor * zip(factors, design[held]).reduce(0) { $0 + $1.0 * $1.1 }
                learnedSquares[index] += Self.square((predicted - pumped[held]) / pumped[held])
            }
            folds += 1
        }
        let best = learnedSquares.indices.min { learnedSquares[$0] < learnedSquares[$1] } ?? 0
        let learnedError = Double.sqrt(learnedSquares[best] / Double(folds))
        let oneFactorError = Double.sqrt(oneFactorSquares / Double(folds))
        let factors = fitFactors(design[...], pumped[...], lambda: ridgeStrengths[best])
        let adopted = learnedError.isFinite && learnedError < oneFactorError * (1 - margin)
        return DriverFactorFit(
            outcome: adopted ? .adopted : .notBetter, periodsUsed: usable.count, periodsNeeded: minimumPeriods,
            factors: Dictionary(uniqueKeysWithValues: zip(parties, factors)), ridgeStrength: ridgeStrengths[best],
            heldOutErrorLearned: learnedError, heldOutErrorOneFactor: oneFactorError)
    }

    func isUsable(_ period: ConsumptionPeriod) -> Bool {
        let model = period.totalModelLiters
        return period.pumpedLiters.isFinite && period.pumpedLiters >= minimumLiters && model.isFinite && model > 0
            && period.modelLiters.values.allSatisfy { $0.isFinite && $0 >= 0 }
    }

    /// The car's one factor over some periods: Σ pumped / Σ model.
    static func pooledFactor(_ design: ArraySlice<[Double]>, _ pumped: ArraySlice<Double>) -> Double {
        let model = design.reduce(0) { $0 + $1.reduce(0, +) }
        return model > 0 ? pumped.reduce(0, +) / model : 1
    }

    /// Each party's factor around the pooled one factor, by ridge regression toward 1.
    func fitFactors(_ design: ArraySlice<[Double]>, _ pumped: ArraySlice<Double>, lambda: Double) -> [Double] {
        let count = design.first?.count ?? 0
        let oneFactor = Self.pooledFactor(design, pumped)
        var normal = [Double](repeating: 0, count: count * count)
        var right = [Double](repeating: 0, count: count)
        for (row, liters) in zip(design, pumped) {
            let x = row.map { oneFactor * $0 / liters }
            let residual = 1 - x.reduce(0, +)
            for i in 0..<count {
                right[i] += x[i] * residual
                for j in 0..<count { normal[i * count + j] += x[i] * x[j] }
            }
        }
        for i in 0..<count { normal[i * count + i] += lambda }
        guard let shifts = Self.choleskySolve(normal, right, size: count) else { return [Double](repeating: 1, count: count) }
        return shifts.map { min(max(1 + $0, factorBand.lowerBound), factorBand.upperBound) }
    }

    /// Solves A·x = b for a symmetric positive definite A (row-major); nil when it is not.
    static func choleskySolve(_ matrix: [Double], _ vector: [Double], size: Int) -> [Double]? {
        var lower = [Double](repeating: 0, count: size * size)
        for i in 0..<size {
            for j in 0...i {
                var sum = matrix[i * size + j]
                for k in 0..<j { sum -= lower[i * size + k] * lower[j * size + k] }
                if i == j {
                    guard sum > 0, sum.isFinite else { return nil }
                    lower[i * size + i] = Double.sqrt(sum)
                } else {
                    lower[i * size + j] = sum / lower[j * size + j]
                }
            }
        }
        var y = [Double](repeating: 0, count: size)
        for i in 0..<size {
            var sum = vector[i]
            for k in 0..<i { sum -= lower[i * size + k] * y[k] }
            y[i] = sum / lower[i * size + i]
        }
        var x = [Double](repeating: 0, count: size)
        for i in stride(from: size - 1, through: 0, by: -1) {
            var sum = y[i]
            for k in (i + 1)..<size { sum -= lower[k * size + i] * x[k] }
            x[i] = sum / lower[i * size + i]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }

    private static func square(_ value: Double) -> Double { value * value }
}
