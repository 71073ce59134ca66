import FairFuelCore
import FairFuelParsers

/// An input to the domain, stamped with link time (capture or host monotonic time).
public enum DomainEvent: Sendable {
    /// An NFC tag was read; its identities (driver URI, UID) are looked up in the directory.
    case tagRead(NFCTagIdentities, at: LinkMilliseconds)
    /// A BLE advertisement with the beacon identities it carries.
    case advertisement(BeaconIdentities, rssiDBm: Int8, at: LinkMilliseconds)
    /// One GNSS epoch.
    case fix(GNSSFix, at: LinkMilliseconds)
    /// Ignition from an MCU with ignition sense (POWER frames, heartbeat flags).
    case ignition(on: Bool, at: LinkMilliseconds)
    /// Time passes (a heartbeat): timers are re-evaluated.
    case tick(at: LinkMilliseconds)
    /// The MCU rebooted (a new HELLO); sessions carry on.
    case mcuRestarted(at: LinkMilliseconds)
    /// Someone ended the session by hand.
    case endSession(at: LinkMilliseconds)

    public var time: LinkMilliseconds {
        switch self {
        case let .tagRead(_, at), let .advertisement(_, _, at), let .fix(_, at), let .ignition(_, at),
            let .tick(at), let .mcuRestarted(at), let .endSession(at):
            at
        }
    }
}

/// A finished session with what it measured.
public struct SessionRecord: Sendable, Equatable {
    public var driver: DriverID
    public var startedAt: LinkMilliseconds
    public var endedAt: LinkMilliseconds
    public var reason: SessionEndReason
    /// When the vehicle stopped before a departure, for reports.
    public var stoppedAt: LinkMilliseconds?
    /// When the driver's beacon was last present, for reports.
    public var driverLeftAt: LinkMilliseconds?
    public var metrics: TripMetrics

    public init(
        driver: DriverID, startedAt: LinkMilliseconds, endedAt: LinkMilliseconds, reason: SessionEndReason,
        stoppedAt: LinkMilliseconds?, driverLeftAt: LinkMilliseconds?, metrics: TripMetrics
    ) {
        self.driver = driver
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.reason = reason
        self.stoppedAt = stoppedAt
        self.driverLeftAt = driverLeftAt
        self.metrics = metrics
    }
}

/// A point of a session's track; recorded only during sessions (privacy).
public struct TripPoint: Sendable, Equatable {
    public var driver: DriverID
    public var at: LinkMilliseconds
    public var latitude: Double
    public var longitude: Double
    public var speed: MetersPerSecond
    /// Session distance so far.
    public var distance: Meters
    /// Session fuel so far: the running total that lets a refuel cut a session in two.
    public var fuel: Liters

    public init(driver: DriverID, at: LinkMilliseconds, latitude: Double, longitude: Double, speed: MetersPerSecond, distance: Meters, fuel: Liters) {
        self.driver = driver
        self.at = at
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.distance = distance
        self.fuel = fuel
    }
}

/// Driving with nobody tapped in: totals only, never positions.
public struct UntrackedDriving: Sendable, Equatable {
    public var from: LinkMilliseconds
    public var to: LinkMilliseconds
    public var distance: Meters
    public var fuel: Liters
    /// Who may have driven it (the last driver of a trip it may continue, fobs aboard),
    /// for the family to confirm; never a decision.
    public var candidates: DriverCandidates

    public init(from: LinkMilliseconds, to: LinkMilliseconds, distance: Meters, fuel: Liters, candidates: DriverCandidates = DriverCandidates()) {
        self.from = from
        self.to = to
        self.distance = distance
        self.fuel = fuel
        self.candidates = candidates
    }
}

/// What the domain tells the service to do or record.
public enum DomainOutput: Sendable, Equatable {
    case feedback(FeedbackSignal)
    case transition(from: SessionState, to: SessionState, at: LinkMilliseconds)
    case sessionStarted(driver: DriverID, at: LinkMilliseconds)
    case sessionEnded(SessionRecord)
    /// A trip goes on without a tap (continuity rules): the ended or interrupted session is
    /// reopened, or a new one starts for the same driver.
    case sessionResumed(SessionResumption)
    /// The session a restart found open will not go on: it ends at its last stored moment.
    case interruptedTripEnded(at: LinkMilliseconds)
    case tripPoint(TripPoint)
    case untrackedDriving(UntrackedDriving)
    /// A tag nobody is provisioned with, for a technician to bind.
    case unknownTag(TagUID, at: LinkMilliseconds)
    /// Link time now maps to UTC with this offset (first valid fix, or a correction).
    case utcAnchored(offsetMs: Int64, at: LinkMilliseconds)
    /// Link time no longer maps to UTC (the MCU restarted): stamp nothing until anchored again.
    case utcUnknown(at: LinkMilliseconds)
    /// A run of fixes whose receiver time is `stepMs` off link time (negative: back) began: a
    /// bad epoch, kept out of the anchor and the trip (`UTCAnchor`); once per run.
    case receiverTimeRejected(stepMs: Int64, at: LinkMilliseconds)
}
