import FairFuelCore
import FairFuelStore

/// One trip as exports see it: a plain value, so that the CLI, the USB pull and tests build
/// it from the store or from the wire alike.
public struct TripRow: Sendable, Equatable {
    public var id: Int64
    /// nil: the driver was removed since (the name is kept).
    public var driverID: Int64?
    public var driverName: String
    public var startUTCMs: Int64?
    public var endUTCMs: Int64?
    /// departed, switched, manual, power_loss, assigned (untracked driving given to a driver); nil: still open.
    public var endReason: String?
    public var distanceMeters: Double
    public var durationMs: Int64
    public var movingMs: Int64
    public var idleMs: Int64
    public var harshAccelerations: Int
    public var harshBrakings: Int
    public var maximumSpeedMetersPerSecond: Double
    public var fuelLiters: Double
    public var stoppedUTCMs: Int64?
    public var driverLeftUTCMs: Int64?
    /// Untracked driving (`id` is its own, shown as `u<id>`): nobody tapped in, no positions.
    public var untracked = false
    /// Sessions: automatic resumptions (continuity rules); the session a new one continues after a park.
    public var resumedCount = 0
    public var continuedFrom: Int64?
    /// Untracked driving: who may have driven it (names), for the family to confirm.
    public var candidates: [String] = []

    public init(id: Int64, driverID: Int64?, driverName: String, startUTCMs: Int64?, endUTCMs: Int64?, endReason: String?,
                distanceMeters: Double, durationMs: Int64, movingMs: Int64, idleMs: Int64, harshAccelerations: Int,
                harshBrakings: Int, maximumSpeedMetersPerSecond: Double, fuelLiters: Double, stoppedUTCMs: Int64? = nil,
                driverLeftUTCMs: Int64? = nil) {
        self.id = id
        self.driverID = driverID
        self.driverName = driverName
        self.startUTCMs = startUTCMs
        self.endUTCMs = endUTCMs
        self.endReason = endReason
        self.distanceMeters = distanceMeters
        self.durationMs = durationMs
        self.movingMs = movingMs
        self.idleMs = idleMs
        self.harshAccelerations = harshAccelerations
        self.harshBrakings = harshBrakings
        self.maximumSpeedMetersPerSecond = maximumSpeedMetersPerSecond
        self.fuelLiters = fuelLiters
        self.stoppedUTCMs = stoppedUTCMs
        self.driverLeftUTCMs = driverLeftUTCMs
    }

    public init(_ session: StoredSession) {
        self.init(
            id: session.id.rawValue, driverID: session.driver?.rawValue, driverName: session.driverName,
            startUTCMs: session.startUTCMs, endUTCMs: session.endUTCMs,
            endReason: session.reportedEndReason,
            distanceMeters: session.distanceMeters, durationMs: session.durationMs, movingMs: session.movingMs,
            idleMs: session.idleMs, harshAccelerations: session.harshAccelerations, harshBrakings: session.harshBrakings,
            maximumSpeedMetersPerSecond: session.maximumSpeedMetersPerSecond, fuelLiters: session.fuelLiters,
            stoppedUTCMs: session.stoppedUTCMs, driverLeftUTCMs: session.driverLeftUTCMs)
        resumedCount = session.resumedCount
        continuedFrom = session.continuedFrom?.rawValue
    }

    /// Untracked driving as a row: no driver, no end reason, no positions.
    public init(_ driving: UntrackedDriving) {
        self.init(
            id: driving.id, driverID: nil, driverName: "", startUTCMs: driving.fromUTCMs, endUTCMs: driving.toUTCMs, endReason: nil,
            distanceMeters: driving.distanceMeters, durationMs: max(0, driving.toUTCMs - driving.fromUTCMs), movingMs: 0, idleMs: 0,
            harshAccelerations: 0, harshBrakings: 0, maximumSpeedMetersPerSecond: 0, fuelLiters: driving.fuelLiters)
        untracked = true
    }

    public var harshEvents: Int { harshAccelerations + harshBrakings }

    /// Whether idle time, harsh events, top speed and moving time were measured: not for
    /// untracked driving, nor for such driving given to a driver afterwards (`assigned`),
    /// which kept only its distance, time and fuel. Lists show "-" for them, and the eco score
    /// leaves such trips out rather than count their zeros as perfect driving.
    public var hasMotionFigures: Bool { !untracked && endReason != "assigned" }

    /// How the family names the trip: `42`, or `u7` for untracked driving.
    public var reference: String { untracked ? "u\(id)" : String(id) }

    /// Distance over the whole trip's time; nil without time.
    public var averageSpeedMetersPerSecond: Double? {
        durationMs > 0 ? distanceMeters / (Double(durationMs) / 1000) : nil
    }

    /// Sessions and untracked driving in one list, by start (sessions first at the same moment).
    /// `names` gives untracked driving's candidates their drivers' names.
    public static func merged(sessions: [StoredSession], untracked: [UntrackedDriving], names: (DriverID) -> String? = { _ in nil }) -> [TripRow] {
        let rows = sessions.map(TripRow.init) + untracked.map { driving in
            var row = TripRow(driving)
            row.candidates = driving.candidates.map { names($0) ?? "driver \($0.rawValue)" }
            return row
        }
        return rows.enumerated().sorted { a, b in
            let x = a.element.startUTCMs ?? 0, y = b.element.startUTCMs ?? 0
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }
}

/// One point of a trip's track.
public struct TrackPoint: Sendable, Equatable {
    public var utcMs: Int64
    /// Degrees, WGS 84.
    public var latitude: Double
    public var longitude: Double
    public var speedMetersPerSecond: Double

    public init(utcMs: Int64, latitude: Double, longitude: Double, speedMetersPerSecond: Double) {
        self.utcMs = utcMs
        self.latitude = latitude
        self.longitude = longitude
        self.speedMetersPerSecond = speedMetersPerSecond
    }

    public init(_ point: StoredTripPoint) {
        self.init(utcMs: point.utcMs, latitude: point.latitude, longitude: point.longitude,
                  speedMetersPerSecond: point.speedMetersPerSecond)
    }
}

extension TripRow: TripSummary {
    /// The row holds the end reason as the texts spell it already.
    public var reportedEndReason: String? { endReason }
}
