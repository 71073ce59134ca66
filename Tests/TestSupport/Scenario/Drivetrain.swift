#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gear a driver keeps, and the engine's temperature state.
public struct Drivetrain: Sendable {
    public private(set) var gear = 1
    /// Running seconds since the last start.
    public private(set) var runningSeconds = 0.0
    /// How cold the engine was at the last start, 0 (warm) to 1 (cold).
    public private(set) var coldnessAtStart = 1.0
    public private(set) var engineOn = false
    private var offSince = 0.0
    private var coldnessAtStop = 1.0

    public init() {}

    /// Current coldness: decays with running time.
    public var coldness: Double { engineOn ? coldnessAtStart * exp(-runningSeconds / 360) : 0 }

    public mutating func start(atSeconds now: Double) {
        guard !engineOn else { return }
        let cooled = 1 - exp(-(now - offSince) / 5_400)
        // The warmth left when it stopped, cooled since.
        coldnessAtStart = min(1, max(0, 1 - (1 - coldnessAtStop) * (1 - cooled)))
        runningSeconds = 0
        engineOn = true
        gear = 1
    }

    public mutating func stop(atSeconds now: Double) {
        guard engineOn else { return }
        coldnessAtStop = coldness
        offSince = now
        engineOn = false
    }

    public mutating func run(seconds: Double) { if engineOn { runningSeconds += seconds } }

    /// Picks the gear for `speed` and `acceleration` as a driver shifting at `upshiftRPM` would.
    public mutating func shift(car: WillansCar, speed: Double, acceleration: Double, upshiftRPM: Double, downshiftRPM: Double) {
        if speed < 1.5 {
            gear = 1
            return
        }
        while gear < car.gearRatios.count && car.rpm(speed: speed, gear: gear) > upshiftRPM {
            gear += 1
        }
        // A driver shifts up early when cruising: the highest gear that keeps the engine above the downshift point.
        if acceleration < 0.3 {
            while gear < car.gearRatios.count && car.rpm(speed: speed, gear: gear + 1) > downshiftRPM * 1.15 {
                gear += 1
            }
        }
        while gear > 1 && car.rpm(speed: speed, gear: gear) < downshiftRPM {
            gear -= 1
        }
    }
}
