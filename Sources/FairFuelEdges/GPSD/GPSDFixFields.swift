import FairFuelCore
import FairFuelParsers

/// The fields of libgps's accumulated fix that FairFuel uses, as plain values (NaN where gpsd has none).
struct GPSDFixFields: Equatable {
    /// gpsd's `MODE_*`: 0 not seen, 1 no fix, 2 2D, 3 3D.
    var mode: Int32
    /// `fix.time`; 0 seconds when gpsd has no time.
    var timeSeconds: Int
    var timeNanoseconds: Int
    var latitudeDegrees: Double
    var longitudeDegrees: Double
    var altitudeMSLMeters: Double
    var altitudeHAEMeters: Double
    var geoidSeparationMeters: Double
    var speedMetersPerSecond: Double
    var trackDegrees: Double
    /// From the latest SKY report; nil before the connection has seen one.
    var satellitesUsed: Int?
    var hdop: Double

    /// The fix as the domain takes it: NaN becomes nil, and position, altitude, speed and course need a 2D or 3D mode.
    var fix: GNSSFix {
        let mode = GNSSMode(rawValue: UInt8(clamping: max(0, min(3, self.mode)))) ?? .noData
        let hasPosition = mode >= .fix2D
        let utc = timeSeconds > 0
            ? GPSDFixFields.milliseconds(seconds: timeSeconds, nanoseconds: timeNanoseconds).map(UTCTimestamp.init) : nil
        return GNSSFix(
            utc: utc,
            timeOfDay: utc?.timeOfDay,
            latitude: hasPosition ? GPSDFixFields.finite(latitudeDegrees) : nil,
            longitude: hasPosition ? GPSDFixFields.finite(longitudeDegrees) : nil,
            altitude: hasPosition ? altitudeMSL.map(Meters.init) : nil,
            speed: hasPosition ? GPSDFixFields.finite(speedMetersPerSecond).map(MetersPerSecond.init) : nil,
            course: hasPosition ? GPSDFixFields.finite(trackDegrees) : nil,
            mode: mode,
            satellitesUsed: satellitesUsed.flatMap { $0 >= 0 ? $0 : nil },
            hdop: GPSDFixFields.finite(hdop))
    }

    /// `altMSL`, else `altHAE` less the geoid separation; nil when neither is known.
    var altitudeMSL: Double? {
        if let msl = GPSDFixFields.finite(altitudeMSLMeters) { return msl }
        guard let hae = GPSDFixFields.finite(altitudeHAEMeters), let separation = GPSDFixFields.finite(geoidSeparationMeters) else {
            return nil
        }
        return hae - separation
    }

    /// A timespec rounded to the nearest millisecond (gpsd stores `.500` as 499 999 999 ns at times);
    /// nil when the nanoseconds are outside 0..<10^9 or the milliseconds do not fit in Int64.
    static func milliseconds(seconds: Int, nanoseconds: Int) -> Int64? {
        guard (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        let (whole, overflowed) = Int64(seconds).multipliedReportingOverflow(by: 1_000)
        let (total, carried) = whole.addingReportingOverflow(Int64((nanoseconds + 500_000) / 1_000_000))
        return overflowed || carried ? nil : total
    }

    static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
}
