import FairFuelCore

import RealModule

/// The vehicle's calibration factor, learnt from full-tank refuels.
///
/// Each full refuel gives the true litres since the previous full refuel; over the same
/// period the model estimated some litres. Their ratio, clamped to a plausible band,
/// votes; the factor is the median (in log space) of the last few votes, so one odd
/// refuel (a forgotten partial fill, a pump that clicked off early) cannot swing it.
/// Periods with too little fuel or distance do not vote. Until a few refuels are known
/// the rated consumption votes too (ratio 1), so the first refuel moves the factor
/// halfway and the second one the rest.
public struct FuelCalibration: Sendable, Equatable {
    public let policy: CalibrationPolicy
    /// Multiplies the model's litres; 1 before any refuel.
    public private(set) var factor = 1.0
    /// Records, oldest first, at most `policy.historyCapacity`.
    public private(set) var history: [CalibrationRecord] = []

    public init(policy: CalibrationPolicy = CalibrationPolicy()) {
        self.policy = policy
        history.reserveCapacity(max(1, policy.historyCapacity))
    }

    /// Restores a calibration from its persisted records (oldest first); the factor is
    /// recomputed from them under `policy`.
    public init(policy: CalibrationPolicy = CalibrationPolicy(), history: [CalibrationRecord]) {
        self.init(policy: policy)
        self.history = Array(history.suffix(max(1, policy.historyCapacity)))
        factor = currentFactor()
    }

    /// Learns from one full-tank-to-full-tank period and returns the new factor.
    ///
    /// `modelLiters` is the uncalibrated estimate over the period (`FuelEstimator.modelLiters`
    /// differences), so that the factor in force at the time does not matter.
    @discardableResult
    public mutating func record(trueLiters: Liters, modelLiters: Liters, distance: Meters) -> Double {
        let ratio: Double? =
            trueLiters.value.isFinite && modelLiters.value.isFinite && modelLiters.value > 0 && trueLiters.value >= 0
            ? trueLiters.value / modelLiters.value : nil
        let outcome: CalibrationRecord.Outcome
        if ratio == nil || !distance.value.isFinite {
            outcome = .invalid
        } else if trueLiters < policy.minimumLiters {
            outcome = .tooLittleFuel
        } else if distance < policy.minimumDistance {
            outcome = .tooShort
        } else if !policy.ratioBand.contains(ratio!) {
            outcome = .clamped
        } else {
            outcome = .accepted
        }
        var entry = CalibrationRecord(
            trueLiters: trueLiters, modelLiters: modelLiters, distance: distance, ratio: ratio, outcome: outcome,
            factorAfter: factor)
        if history.count >= max(1, policy.historyCapacity) { history.removeFirst() }
        history.append(entry)
        factor = currentFactor()
        entry.factorAfter = factor
        history[history.count - 1] = entry
        return factor
    }

    /// The median, in log space, of the recent votes (and the prior while refuels are few).
    private func currentFactor() -> Double {
        let lower = Double.log(policy.ratioBand.lowerBound)
        let upper = Double.log(policy.ratioBand.upperBound)
        var votes: [Double] = []
        var used = 0
        for entry in history where entry.isUsed {
            used += 1
        }
        for entry in history.reversed() where entry.isUsed {
            guard votes.count < max(1, policy.window), let ratio = entry.ratio else { continue }
            votes.append(min(upper, max(lower, Double.log(ratio))))
        }
        if used < policy.priorVotesUntil { votes.append(min(upper, max(lower, 0))) }
        guard !votes.isEmpty else { return 1 }
        votes.sort()
        let middle = votes.count / 2
        let median = votes.count % 2 == 1 ? votes[middle] : (votes[middle - 1] + votes[middle]) / 2
        return Double.exp(median)
    }
}
