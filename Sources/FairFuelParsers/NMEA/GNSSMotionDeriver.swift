import FairFuelCore
import RealModule

/// Speed and course from successive positions, for epochs whose receiver sent
/// none (GGA-only or GLL-only receivers, an epoch cut before its RMC).
///
/// The rule, applied to every fix with a position (whether or not it has a speed):
/// - **Time step**: the fix is compared with an *anchor*, an earlier fix at least
///   `minimumStepMilliseconds` (0.9 s) older, so a 5 or 10 Hz receiver's position
///   noise is not divided by 0.1 s; fixes closer to the anchor than that repeat the
///   last derived speed and course. The anchor moves to each fix that is a full
///   step away. Times are the epochs' UTC times of day (a step across midnight
///   counts forward), so a receiver that never sends a date is still covered.
/// - **Gap**: more than `maximumStepMilliseconds` (5 s) since the anchor, or time
///   going backwards: no speed, and the fix becomes the new anchor (the path in
///   between is unknown).
/// - **Distance**: the ellipsoidal (WGS 84, Vincenty) distance over the step
///   divided by the step gives the speed, however small the move (0.3 m in 1 s
///   is 0.3 m/s, as gpsd reports it); the course (initial bearing, degrees from
///   true north) only when the move is at least `minimumCourseMeters` (1 m):
///   below that the bearing is noise.
/// - **Jump**: a speed above `maximumMetersPerSecond` (100 m/s, 360 km/h: no
///   car) is a position jump (multipath, a receiver reset): no speed, and the
///   fix becomes the new anchor.
///
/// State is a few scalars; nothing is allocated.
public struct GNSSMotionDeriver: Sendable {
    public static let minimumStepMilliseconds: Int32 = 900
    public static let maximumStepMilliseconds: Int32 = 5_000
    public static let minimumCourseMeters = 1.0
    public static let maximumMetersPerSecond = 100.0

    private var anchor: (milliseconds: Int32, latitude: Double, longitude: Double)?
    /// The last derived speed (m/s) and course for the current anchor.
    private var last: (metersPerSecond: Double, course: Double?)?
    /// Steps refused as jumps since init.
    public private(set) var jumpCount = 0

    public init() {}

    /// Notes a positioned fix at `time`; returns the speed (m/s) and course to use
    /// if the fix has none of its own, or nil when none can be derived.
    public mutating func observe(
        time: UTCTimeOfDay, latitude: Double, longitude: Double
    ) -> (metersPerSecond: Double, course: Double?)? {
        let now = (time.milliseconds, latitude, longitude)
        guard let anchor else {
            self.anchor = now
            return nil
        }
        var step = time.milliseconds - anchor.milliseconds
        if step < -UTCTimeOfDay.millisecondsPerDay / 2 { step += UTCTimeOfDay.millisecondsPerDay }
        guard step > 0, step <= GNSSMotionDeriver.maximumStepMilliseconds else {
            self.anchor = now
            last = nil
            return nil
        }
        guard step >= GNSSMotionDeriver.minimumStepMilliseconds else { return last }
        self.anchor = now
        let (meters, bearing) = GNSSMotionDeriver.distanceAndBearing(
            anchor.latitude, anchor.longitude, latitude, longitude)
        let speed = meters / (Double(step) / 1000)
        guard speed <= GNSSMotionDeriver.maximumMetersPerSecond, speed.isFinite else {
            jumpCount += 1
            last = nil
            return nil
        }
        last = (speed, meters >= GNSSMotionDeriver.minimumCourseMeters ? bearing : nil)
        return last
    }

    /// Forgets the anchor (after the receiver was reset or replaced).
    public mutating func reset() {
        anchor = nil
        last = nil
    }

    /// WGS 84 ellipsoid: semi-major axis (m) and flattening.
    static let semiMajorMeters = 6_378_137.0
    static let flattening = 1 / 298.257_223_563

    /// Distance in metres on the WGS 84 ellipsoid (Vincenty's inverse formula) and
    /// initial bearing in degrees [0, 360) from the first point to the second.
    /// Falls back to a sphere when the iteration does not converge (near-antipodal points).
    public static func distanceAndBearing(
        _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
    ) -> (meters: Double, degrees: Double) {
        let a = semiMajorMeters
        let f = flattening
        let b = a * (1 - f)
        let radians = Double.pi / 180
        let l = (longitude2 - longitude1) * radians
        let u1 = Double.atan((1 - f) * Double.tan(latitude1 * radians))
        let u2 = Double.atan((1 - f) * Double.tan(latitude2 * radians))
        let sinU1 = Double.sin(u1), cosU1 = Double.cos(u1), sinU2 = Double.sin(u2), cosU2 = Double.cos(u2)
        var lambda = l
        var iterations = 0
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSquaredAlpha = 0.0, cos2SigmaM = 0.0
        var sinLambda = 0.0, cosLambda = 0.0
        while true {
            sinLambda = Double.sin(lambda)
            cosLambda = Double.cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return (0, 0) }  // the same point
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = Double.atan2(y: sinSigma, x: cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            iterations += 1
            if abs(lambda - previous) < 1e-12 { break }
            if iterations >= 200 { return sphere(latitude1, longitude1, latitude2, longitude2) }
        }
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma = bigB * sinSigma
            * (cos2SigmaM + bigB / 4
                * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM
                    * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let meters = b * bigA * (sigma - deltaSigma)
        var degrees = Double.atan2(y: cosU2 * sinLambda, x: cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) / radians
        if degrees < 0 { degrees += 360 }
        return (meters, degrees)
    }

    /// Haversine on the mean-radius sphere, with the initial bearing.
    static func sphere(
        _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
    ) -> (meters: Double, degrees: Double) {
        let radians = Double.pi / 180
        let phi1 = latitude1 * radians, phi2 = latitude2 * radians
        let dPhi = phi2 - phi1
        let dLambda = (longitude2 - longitude1) * radians
        let h = Double.sin(dPhi / 2) * Double.sin(dPhi / 2) + Double.cos(phi1) * Double.cos(phi2) * Double.sin(dLambda / 2) * Double.sin(dLambda / 2)
        let meters = 2 * 6_371_008.8 * Double.asin(min(1, h.squareRoot()))
        var degrees = Double.atan2(
            y: Double.sin(dLambda) * Double.cos(phi2),
            x: Double.cos(phi1) * Double.sin(phi2) - Double.sin(phi1) * Double.cos(phi2) * Double.cos(dLambda)) / radians
        if degrees < 0 { degrees += 360 }
        return (meters, degrees)
    }
}
