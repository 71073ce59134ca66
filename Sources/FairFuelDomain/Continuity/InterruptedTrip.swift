import FairFuelCore

/// The store's last trip, handed to the domain at start-up: a session left open because the
/// service stopped while it ran (a restart, a power cut, the dongle's power going with the
/// ignition), or one that ended by departure shortly before. Once the receiver gives the
/// time, the continuity rules decide whether the trip goes on.
public struct InterruptedTrip: Sendable, Equatable {
    public var driver: DriverID
    /// Still open in the store (the service stopped mid-trip); false: ended by departure.
    public var isOpen: Bool
    public var startUTCMs: Int64
    /// When the car stood still: the last stored point of an open session, the stop of an ended one.
    public var lastUTCMs: Int64
    /// The last stored position; nil when no point was stored.
    public var latitude: Double?
    public var longitude: Double?
    public var lastSpeed: MetersPerSecond
    /// Since when the car had stood at `lastUTCMs` (an open session's track ends standing); nil: moving.
    public var standingSinceUTCMs: Int64?
    /// What the stored track measured (rebuilt with `TripMeter.metrics(of:)`).
    public var metrics: TripMetrics
    /// Untracked driving stored since the stop that names this driver as a candidate (the
    /// service stopped while it waited for their beacon): taken into the trip if it goes on.
    public var held = TripMetrics()

    public init(
        driver: DriverID, isOpen: Bool, startUTCMs: Int64, lastUTCMs: Int64, latitude: Double?, longitude: Double?,
        lastSpeed: MetersPerSecond, metrics: TripMetrics
    ) {
        self.driver = driver
        self.isOpen = isOpen
        self.startUTCMs = startUTCMs
        self.lastUTCMs = lastUTCMs
        self.latitude = latitude
        self.longitude = longitude
        self.lastSpeed = lastSpeed
        self.metrics = metrics
    }
}

/// One stored point of a track, as `TripMeter.metrics(of:)` reads it back.
public struct TrackSample: Sendable, Equatable {
    public var utcMs: Int64
    public var speed: MetersPerSecond
    /// Running totals within the session.
    public var distance: Meters
    public var fuel: Liters

    public init(utcMs: Int64, speed: MetersPerSecond, distance: Meters, fuel: Liters) {
        self.utcMs = utcMs
        self.speed = speed
        self.distance = distance
        self.fuel = fuel
    }
}
