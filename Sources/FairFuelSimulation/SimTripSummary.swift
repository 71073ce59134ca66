import FairFuelCore
import FairFuelParsers

/// A trip as the scenario drove it.
public struct SimTripSummary: Sendable, Equatable {
    public var line: Int
    /// Who drove, in order (a swap adds the second driver); empty: nobody the dongle knows.
    public var drivers: [String]
    public var passengers: [String]
    /// Whether the first driver tapped their tag (late taps count).
    public var tapped: Bool
    /// Moving off and parking, simulated milliseconds.
    public var startMs: Int64
    public var endMs: Int64
    public var startUTC: UTCTimestamp
    public var endUTC: UTCTimestamp
    public var distanceMeters: Double
    public var destination: String?
}
