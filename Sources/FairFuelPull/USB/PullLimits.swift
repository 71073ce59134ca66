/// The most a pull takes from a dongle, so that a hostile or broken one (one that answers
/// `more` forever, or counts past any real car) ends the pull with an error instead of filling
/// the laptop's memory or disk. Each bound is far above what a car's dongle holds.
public struct PullLimits: Sendable, Equatable {
    /// Trips in one listing: 20 years of 6 trips a day.
    public var maximumTrips = 50_000
    /// Points of one trip's track: 11 days at one fix a second.
    public var maximumTrackPoints = 1_000_000
    /// Bytes of one small listing (vehicle, drivers, splits, summary).
    public var maximumListBytes = 8 << 20
    /// Bytes of one page: a page holds about 4 KiB (`PullPage.byteBudget`) and one record past it.
    public var maximumPageBytes = 256 << 10

    public init() {}

    public static let standard = PullLimits()
}
