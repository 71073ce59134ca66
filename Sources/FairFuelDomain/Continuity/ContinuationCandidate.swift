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
    /// A restart's: since when the car had stood at `stopBeganAt` (the last stored point); nil: it was moving.
    var standingSinceUTCMs: Int64?
    var standingSince: LinkMilliseconds?
    var metrics: TripMetrics
    var latitude: Double?
    var longitude: Double?
    var lastSpeed: MetersPerSecond
    /// The stored session is still open (a restart's, not yet decided).
    var sessionOpen: Bool
    /// A restart's drive between the last stored point and the first fix, once measured.
    var bridge: TripMetrics?
    /// A restart's: when a fix first said the car could not be where the trip left it (the
    /// judgement waits `ContinuityThresholds.implausibleFixWindowMs` for one that agrees).
    var implausibleFixSince: LinkMilliseconds?
    /// Driving already stored as untracked since the stop, taken back if the trip goes on.
    var held = TripMetrics()
    /// A restart's: the car's standing time while the trip waits, counted between fixes as the
    /// live meter counts a stop; the trip takes it as idle time if it goes on.
    var standingMs: Int64 = 0
    var lastStepAt: LinkMilliseconds?

    /// A motion step while the trip waits; a gap while standing is the receiver off with the
    /// engine, not idle time.
    mutating func standing(moving: Bool, afterGap: Bool, at time: LinkMilliseconds) {
        if !moving && !afterGap, let last = lastStepAt { standingMs += max(0, time.value - last.value) }
        lastStepAt = time
    }

    /// Maps a restart's stored times onto link time; false while UTC is unknown.
    mutating func resolve(with anchor: UTCAnchor) -> Bool {
        if stopBeganAt != nil { return true }
        guard let offset = anchor.offsetMs, let start = startUTCMs, let stop = stopBeganUTCMs else { return false }
        startedAt = LinkMilliseconds(start - offset)
        stopBeganAt = LinkMilliseconds(stop - offset)
        standingSince = standingSinceUTCMs.map { LinkMilliseconds($0 - offset) }
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
    /// When the car moved off again (the decision comes up to a few seconds later, at `at`):
    /// the stop ended here, and the trip is measured on from here.
    public var movedOffAt: LinkMilliseconds
    /// When `continuing`: what the trip had measured when the car moved off (the stored track
    /// after `movedOffAt` measures the rest, `TripMeter.metrics(of:...checkpoint:)`).
    public var measured: TripMetrics

    public init(
        driver: DriverID, startedAt: LinkMilliseconds, at: LinkMilliseconds, continuing: Bool, origin: ContinuationOrigin,
        movedOffAt: LinkMilliseconds? = nil, measured: TripMetrics = TripMetrics()
    ) {
        self.driver = driver
        self.startedAt = startedAt
        self.at = at
        self.continuing = continuing
        self.origin = origin
        self.movedOffAt = movedOffAt ?? at
        self.measured = measured
    }
}
