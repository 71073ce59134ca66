import FairFuelCore
import FairFuelParsers

/// One GNSS receiver epoch as the receiver reports it (noise included).
public struct ReceiverEpoch: Sendable {
    public var utcMs: Int64
    /// False while the receiver has no fix (start-up, a tunnel): it still reports its time.
    public var valid: Bool
    public var latitude = 0.0
    public var longitude = 0.0
    public var altitudeMeters = 0.0
    public var speedMetersPerSecond = 0.0
    public var courseDegrees = 0.0
    public var hdop = 0.0
    public var satellites = 0
}

extension ReceiverEpoch {
    /// The fix the NMEA assembler makes of this epoch's RMC and GGA.
    public var fix: GNSSFix {
        let stamp = UTCTimestamp(millisecondsSinceEpoch: utcMs)
        guard valid else { return GNSSFix(utc: stamp, timeOfDay: stamp.timeOfDay, mode: .noFix) }
        // The sentences carry 1e-5 minutes, 0.01 knots and 0.1 degrees.
        let knots = (speedMetersPerSecond * 3600 / 1852 * 100).rounded() / 100
        return GNSSFix(
            utc: stamp, timeOfDay: stamp.timeOfDay, latitude: latitude, longitude: longitude,
            altitude: Meters(altitudeMeters), speed: MetersPerSecond.knots(knots), course: courseDegrees,
            mode: satellites >= 4 ? .fix3D : .fix2D, satellitesUsed: satellites, hdop: (hdop * 10).rounded() / 10)
    }
}
