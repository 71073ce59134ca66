import FairFuelCore

/// Which refuels calibration trusts, and how far it lets one of them move the factor.
public struct CalibrationPolicy: Sendable, Equatable {
    /// Ratios (true over model litres) are clamped into this band before they vote.
    public var ratioBand: ClosedRange<Double> = 0.5...2
    /// The factor is the median of this many most recent accepted ratios.
    public var window = 5
    /// Until this many refuels are accepted, the rated consumption (ratio 1) votes too, so
    /// that a single first refuel moves the factor only halfway (in log space).
    public var priorVotesUntil = 3
    /// Periods with less fuel than this are ignored: a pump's shut-off varies by a litre or so.
    public var minimumLiters = Liters(10)
    /// Periods shorter than this are ignored.
    public var minimumDistance = Meters(100_000)
    /// How many records the history keeps (oldest dropped first).
    public var historyCapacity = 32

    public init() {}
}
