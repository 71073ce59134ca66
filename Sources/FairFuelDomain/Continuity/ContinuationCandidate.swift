import FairFuelCore

/// Where a continuation comes from.
public enum ContinuationOrigin: String, Sendable, CaseIterable {
    /// The session ended by departure (the seed rule) while the service ran.
    case stop
    /// The service (re)started with the session still open in the store.
    case restart
}

/// The last driver's trip that a drive without a tap may continue, until the rules
/// decide (ContinuityThresholds).
struct ContinuationCandidate: Sendable, Equatable {
    var driver: DriverID
    var origin: ContinuationOrigin
    /// Link times of the session's start and of the moment the car stood still; for a
    /// restart nil until the UTC anchor maps the stored UTC times onto this run's link time.
    var startedAt: LinkMilliseconds?
    var stopBeganAt: LinkMilliseconds?
    /// A restart's stored times, kept until they can be mapped.
    var startUTCMs: Int64?
    var stopBeganUTCMs: Int64?
    var metrics: TripMetrics
    var latitude: Double?
    var longitude: Double?
    var lastSpeed: MetersPerSecond
    /// The stored session is still open (a restart's, not yet decided).
    var sessionOpen: Bool
    /// A restart's drive between the last stored point and the first fix, once measured.
    var bridge: TripMetrics?
    /// Driving already stored as untracked since the stop, taken back if the trip goes on.
    var held = TripMetrics()

    /// Maps a restart's stored times onto link time; false while UTC is unknown.
    mutating func resolve(with anchor: UTCAnchor) -> Bool {
        if stopBeganAt != nil { return true }
        guard let offset = anchor.offsetMs, let start = startUTCMs, let stop = stopBeganUTCMs else { return false }
        startedAt = LinkMilliseconds(start - offset)
        stopBeganAt = LinkMilliseconds(stop - offset)
        return true
    }
}

/// A trip that goes on without a tap, as the domain reports it.
public struct SessionResumption: Sendable, Equatable {
    public var driver: DriverID
    /// The trip's start: the original session's when `continuing`, else `at`.
    public var startedAt: LinkMilliseconds
    public var at: LinkMilliseconds
    /// The ended (or interrupted) session is reopened: one trip. False: a new session
    /// for the same driver, continuing from the last one.
    public var continuing: Bool
    public var origin: ContinuationOrigin

    public init(driver: DriverID, startedAt: LinkMilliseconds, at: LinkMilliseconds, continuing: Bool, origin: ContinuationOrigin) {
        self.driver = driver
        self.startedAt = startedAt
        self.at = at
        self.continuing = continuing
        self.origin = origin
    }
}
