import FairFuelCore

/// One full-tank-to-full-tank period as calibration saw it; what the store persists.
public struct CalibrationRecord: Sendable, Equatable {
    /// What calibration did with the period.
    public enum Outcome: String, Sendable, Equatable {
        case accepted
        /// Accepted with the ratio clamped into the policy's band.
        case clamped
        case tooLittleFuel
        case tooShort
        /// Not finite, or the model estimated no fuel at all.
        case invalid
    }

    /// Litres the pump put in to fill the tank again.
    public var trueLiters: Liters
    /// The uncalibrated model's litres over the same period (`FuelEstimator.modelLiters`).
    public var modelLiters: Liters
    public var distance: Meters
    /// True over model litres, as measured (before clamping); nil when undefined.
    public var ratio: Double?
    public var outcome: Outcome
    /// The calibration factor after this record.
    public var factorAfter: Double

    public init(
        trueLiters: Liters, modelLiters: Liters, distance: Meters, ratio: Double?, outcome: Outcome, factorAfter: Double
    ) {
        self.trueLiters = trueLiters
        self.modelLiters = modelLiters
        self.distance = distance
        self.ratio = ratio
        self.outcome = outcome
        self.factorAfter = factorAfter
    }

    /// Whether the ratio votes for the factor.
    public var isUsed: Bool { outcome == .accepted || outcome == .clamped }
}
