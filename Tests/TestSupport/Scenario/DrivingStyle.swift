/// How one driver drives: accelerations, braking, speed and gear changes.
///
/// Accelerations are what the driver asks for; the car's power curve caps them
/// (`WillansCar.maximumAcceleration`), so an aggressive driver's 3 m/s² only holds
/// at low speed.
public struct DrivingStyle: Sendable, Equatable {
    public var name: String
    /// Acceleration from rest toward the target speed, m/s².
    public var acceleration: Double
    /// Braking the driver is comfortable with, m/s² (positive).
    public var deceleration: Double
    /// Cruising speed as a fraction of the limit.
    public var speedFactor: Double
    public var upshiftRPM: Double
    public var downshiftRPM: Double
    /// Standard deviation of the driver's acceleration wobble, m/s².
    public var accelerationJitter: Double
    /// Chance that a red light is met with late, hard braking.
    public var lateBrakingChance: Double

    public init(
        name: String, acceleration: Double, deceleration: Double, speedFactor: Double, upshiftRPM: Double,
        downshiftRPM: Double, accelerationJitter: Double, lateBrakingChance: Double
    ) {
        self.name = name
        self.acceleration = acceleration
        self.deceleration = deceleration
        self.speedFactor = speedFactor
        self.upshiftRPM = upshiftRPM
        self.downshiftRPM = downshiftRPM
        self.accelerationJitter = accelerationJitter
        self.lateBrakingChance = lateBrakingChance
    }

    public static let calm = DrivingStyle(
        name: "calm", acceleration: 1.2, deceleration: 1.5, speedFactor: 0.94, upshiftRPM: 2_100, downshiftRPM: 1_200,
        accelerationJitter: 0.08, lateBrakingChance: 0)
    public static let normal = DrivingStyle(
        name: "normal", acceleration: 1.7, deceleration: 2.1, speedFactor: 1.0, upshiftRPM: 2_600, downshiftRPM: 1_300,
        accelerationJitter: 0.15, lateBrakingChance: 0.02)
    public static let aggressive = DrivingStyle(
        name: "aggressive", acceleration: 3.0, deceleration: 3.4, speedFactor: 1.12, upshiftRPM: 3_800,
        downshiftRPM: 1_700, accelerationJitter: 0.3, lateBrakingChance: 0.12)
}
