import FairFuelCore

/// What the car learnt from its full-to-full periods: one factor per party (each driver and
/// untracked driving) on top of the car's one calibration factor, and whether it is used.
public struct DriverFactorFit: Sendable, Equatable {
    public enum Outcome: String, Sendable, Equatable {
        /// It beat the one factor on periods it was not fitted on: bills use it.
        case adopted
        /// It was fitted, but did not beat the one factor by the margin on held-out periods.
        case notBetter = "not_better"
        /// Too few full-to-full periods to try.
        case tooFewPeriods = "too_few_periods"
    }

    public var outcome: Outcome
    /// Usable full-to-full periods the fit saw.
    public var periodsUsed: Int
    /// How many the learner needs before it tries.
    public var periodsNeeded: Int
    /// Each party's factor relative to the car's one factor (1: as the model says); empty when not tried.
    public var factors: [DriverID?: Double]
    /// The ridge strength the cross-validation chose.
    public var ridgeStrength: Double
    /// Root mean square relative error on held-out periods (rolling origin), of the per-party fit
    /// and of the one factor on the same periods; nil when not tried.
    public var heldOutErrorLearned: Double?
    public var heldOutErrorOneFactor: Double?

    public init(
        outcome: Outcome, periodsUsed: Int, periodsNeeded: Int, factors: [DriverID?: Double] = [:], ridgeStrength: Double = 0,
        heldOutErrorLearned: Double? = nil, heldOutErrorOneFactor: Double? = nil
    ) {
        self.outcome = outcome
        self.periodsUsed = periodsUsed
        self.periodsNeeded = periodsNeeded
        self.factors = factors
        self.ridgeStrength = ridgeStrength
        self.heldOutErrorLearned = heldOutErrorLearned
        self.heldOutErrorOneFactor = heldOutErrorOneFactor
    }

    public var isAdopted: Bool { outcome == .adopted }

    /// The factor a bill applies to a party's estimated litres: 1 unless adopted.
    public func appliedFactor(for party: DriverID?) -> Double {
        isAdopted ? factors[party] ?? 1 : 1
    }
}
