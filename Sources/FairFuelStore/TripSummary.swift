/// A closed trip's summary as the JSON texts carry it (`trips --json`, the uplink's trip message):
/// what a stored session and a report's trip row both hold, so that its fields are written once
/// (`UplinkPayload.addTripSummary`).
public protocol TripSummary {
    var startUTCMs: Int64? { get }
    var endUTCMs: Int64? { get }
    /// The end reason as the texts spell it; nil while the trip is open.
    var reportedEndReason: String? { get }
    var distanceMeters: Double { get }
    var durationMs: Int64 { get }
    var idleMs: Int64 { get }
    var movingMs: Int64 { get }
    var harshAccelerations: Int { get }
    var harshBrakings: Int { get }
    var maximumSpeedMetersPerSecond: Double { get }
    var fuelLiters: Double { get }
    var stoppedUTCMs: Int64? { get }
    var driverLeftUTCMs: Int64? { get }
}

extension StoredSession: TripSummary {}
