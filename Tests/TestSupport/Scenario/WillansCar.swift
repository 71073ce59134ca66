/// The scenarios' "true" car: a Willans-line petrol engine behind a six-speed manual gearbox.
///
/// Deliberately not FairFuel's model (Akçelik & Besley's power model on a typical road
/// load), so that the scenarios measure what FairFuel gets wrong. Fuel power is
///
///     P_fuel = (P_brake + P_friction(N) + P_accessories) / η_indicated
///
/// with the friction mean effective pressure of Heywood (1988, eq. 13.15) for SI engines,
/// FMEP = 0.97 + 0.15·(N/1000) + 0.05·(N/1000)² bar, so the same wheel power costs more
/// at high engine speed (a late-shifting driver pays for it). Overrun above 1,300 rpm in
/// gear cuts fuel (DFCO); a cold engine's friction is raised by up to 60 % and decays
/// with running time (τ 6 min), and the engine cools with τ 90 min when off. The road
/// load is rolling resistance plus aerodynamic drag from the car's own Cr and CdA, and
/// rotating masses add 4 % plus 0.25 % × (overall ratio)² of the mass.
public struct WillansCar: Sendable {
    public var massKilograms = 1_430.0
    public var rollingCoefficient = 0.0095
    public var dragAreaSquareMeters = 0.64
    public var airDensity = 1.2
    public var drivelineEfficiency = 0.93
    public var displacementLiters = 1.5
    public var indicatedEfficiency = 0.36
    public var accessoryKilowatts = 0.7
    public var idleRPM = 800.0
    /// Highest brake mean effective pressure, bar (full load).
    public var maximumBMEPBar = 11.0
    /// Petrol E10, lower heating value per litre.
    public var megajoulesPerLiter = 31.5
    public var wheelRadiusMeters = 0.31
    public var finalDrive = 4.06
    public var gearRatios = [3.73, 2.05, 1.36, 1.03, 0.82, 0.69]
    public var redlineRPM = 6_200.0
    public var tankLiters = 55.0

    public init() {}

    /// Engine speed in `gear` (1-based) at `speed` m/s, with the clutch slipping near standstill.
    public func rpm(speed: Double, gear: Int) -> Double {
        let wheelRevsPerSecond = speed / (2 * Double.pi * wheelRadiusMeters)
        let engine = wheelRevsPerSecond * 60 * gearRatios[gear - 1] * finalDrive
        return max(gear == 1 ? idleRPM + 400 : idleRPM, engine)
    }

    /// Friction and pumping power at `rpm`, kW.
    public func frictionKilowatts(rpm: Double) -> Double {
        let k = rpm / 1000
        let fmepPascal = (0.97 + 0.15 * k + 0.05 * k * k) * 1e5
        return fmepPascal * displacementLiters / 1000 * rpm / 120 / 1000
    }

    /// The most brake power the engine gives at `rpm`, kW.
    public func maximumKilowatts(rpm: Double) -> Double {
        // BMEP falls off below 1,500 rpm (turbo-less torque curve).
        let shape = min(1, 0.55 + 0.45 * rpm / 1_500)
        return maximumBMEPBar * shape * 1e5 * displacementLiters / 1000 * min(rpm, 5_800) / 120 / 1000
    }

    /// Tractive force needed at the wheels, newtons, at `speed` m/s with `acceleration` m/s² in `gear`.
    public func wheelForce(speed: Double, acceleration: Double, gear: Int, grade: Double = 0) -> Double {
        let g = 9.806_65
        let overall = gearRatios[gear - 1] * finalDrive
        let inertia = 1.04 + 0.0025 * overall * overall
        let rolling = speed > 0.05 ? massKilograms * g * rollingCoefficient : 0
        let drag = 0.5 * airDensity * dragAreaSquareMeters * speed * speed
        return rolling + drag + massKilograms * (inertia * acceleration + g * grade)
    }

    /// Fuel rate in millilitres per second, engine running.
    ///
    /// `coldness` is 0 for a warm engine and 1 for one started after a night out.
    public func millilitersPerSecond(speed: Double, acceleration: Double, gear: Int, coldness: Double, grade: Double = 0)
        -> Double
    {
        let n = rpm(speed: speed, gear: gear)
        let wheelKilowatts = wheelForce(speed: speed, acceleration: acceleration, gear: gear, grade: grade) * speed / 1000
        let friction = frictionKilowatts(rpm: n) * (1 + 0.6 * coldness)
        if wheelKilowatts < 0 && speed > 4 && n > 1_300 {
            return 0  // overrun: fuel cut
        }
        let brake = max(0, wheelKilowatts) / drivelineEfficiency
        var efficiency = indicatedEfficiency
        // Full-load enrichment: beyond 85 % of the torque curve the mixture runs rich.
        if brake > 0.85 * maximumKilowatts(rpm: n) { efficiency *= 0.88 }
        let fuelKilowatts = (brake + friction + accessoryKilowatts) / efficiency
        return fuelKilowatts / megajoulesPerLiter
    }

    /// The greatest acceleration available at `speed` in `gear`, m/s².
    public func maximumAcceleration(speed: Double, gear: Int) -> Double {
        let n = rpm(speed: speed, gear: gear)
        let power = maximumKilowatts(rpm: n) * 1000 * drivelineEfficiency
        let overall = gearRatios[gear - 1] * finalDrive
        let inertia = 1.04 + 0.0025 * overall * overall
        let resisting = wheelForce(speed: speed, acceleration: 0, gear: gear)
        // Wheel slip limits a standing start: about 0.45 g.
        let force = min(power / max(speed, 1), massKilograms * 9.81 * 0.45)
        return (force - resisting) / (massKilograms * inertia)
    }
}
