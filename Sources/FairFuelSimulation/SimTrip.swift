/// The roads a generated route takes: cruise speed, corners, red lights.
public enum SimRouteKind: String, Sendable, CaseIterable {
    case urban, suburban, rural, motorway, mixed
}

/// Where a trip's motion comes from.
public enum SimRouteSpec: Sendable, Equatable {
    /// A generated route: towards a place, or a loop of the given length from where the car is.
    case generated(kind: SimRouteKind, lengthMeters: Double?, destination: String?)
    /// A real NMEA log (path relative to the scenario file), replayed position by position.
    case nmeaLog(path: String, destination: String?)
}

/// When the driver taps their tag.
public enum SimTapTiming: Sendable, Equatable {
    /// Before the ignition (the normal case).
    case atStart
    /// Forgot at first, taps this long after moving off.
    case late(ms: Int64)
    /// Never taps: an untracked trip unless a beacon says who drives.
    case never
}

/// What happens at a stop on the way.
public enum SimStopKind: Sendable, Equatable {
    /// Stationary with the engine running (a red light, a jam).
    case light
    /// Engine running, waiting (a school gate).
    case wait
    /// Ignition off, everyone gets out and walks away, comes back.
    case park
    /// Ignition off; the driver fills up at the pump, walks to the kiosk and back.
    case fuel(liters: Double?, costMinorUnits: Int64?)
    /// Ignition off; the passenger `name` takes over and taps.
    case swap(String)
    /// A passenger gets out and walks away, engine running.
    case drop(String)
}

/// A scripted stop on a generated route.
public struct SimStop: Sendable, Equatable {
    public var kind: SimStopKind
    public var durationMs: Int64
    /// Along the route; nil: spread evenly.
    public var atMeters: Double?
    public var line: Int

    public init(kind: SimStopKind, durationMs: Int64, atMeters: Double?, line: Int) {
        self.kind = kind
        self.durationMs = durationMs
        self.atMeters = atMeters
        self.line = line
    }
}

/// A trip: someone walks to the car, taps, drives a route with stops, parks and leaves.
public struct SimTrip: Sendable, Equatable {
    /// nil: nobody the dongle knows (a friend borrowed the car).
    public var driver: String?
    public var passengers: [String] = []
    public var route: SimRouteSpec
    public var tap: SimTapTiming = .atStart
    public var stops: [SimStop] = []
    /// Walk from the house or the street to the car before the trip's time.
    public var approachMs: Int64 = 20_000
    /// How long the people stay in the parked car before they get out and walk away.
    public var stayMs: Int64 = 0
    public var line: Int

    public init(driver: String?, route: SimRouteSpec, line: Int) {
        self.driver = driver
        self.route = route
        self.line = line
    }
}
