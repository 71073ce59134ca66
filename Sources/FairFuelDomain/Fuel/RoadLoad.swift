import FairFuelCore

import RealModule

/// A vehicle's resistance to motion on a level road: F(v) = A + B·v + C·v², in newtons.
///
/// These are coast-down coefficients, as published for every US test vehicle (EPA Test
/// Car List "target coefficients") and in EU type approval (f0, f1, f2); they hold
/// rolling resistance, driveline drag and aerodynamic drag together.
public struct RoadLoad: Sendable, Equatable {
    /// A: newtons.
    public var constantNewtons: Double
    /// B: newtons per m/s.
    public var linearNewtonsPerMeterPerSecond: Double
    /// C: newtons per (m/s)².
    public var quadraticNewtonsPerMeterPerSecondSquared: Double

    public init(
        constantNewtons: Double, linearNewtonsPerMeterPerSecond: Double,
        quadraticNewtonsPerMeterPerSecondSquared: Double
    ) {
        self.constantNewtons = constantNewtons
        self.linearNewtonsPerMeterPerSecond = linearNewtonsPerMeterPerSecond
        self.quadraticNewtonsPerMeterPerSecondSquared = quadraticNewtonsPerMeterPerSecondSquared
    }

    /// Coefficients as the EPA publishes them: lbf, lbf/mph and lbf/mph².
    public init(poundsForce a: Double, poundsForcePerMph b: Double, poundsForcePerMphSquared c: Double) {
        let newtonsPerPound = 4.448_221_615_260_5
        let metersPerSecondPerMph = 0.447_04
        self.init(
            constantNewtons: a * newtonsPerPound,
            linearNewtonsPerMeterPerSecond: b * newtonsPerPound / metersPerSecondPerMph,
            quadraticNewtonsPerMeterPerSecondSquared: c * newtonsPerPound / (metersPerSecondPerMph * metersPerSecondPerMph))
    }

    /// Typical coefficients for a car of this mass, from the medians over the 1,370 vehicle
    /// configurations of the EPA Test Car List for model year 2022.
    ///
    /// A = 0.0087 · M · g (rolling and driveline), B = 0.00108 · M, C = 0.00334 · M^(2/3)
    /// (for 1400 kg: C = 0.42 N/(m/s)², a CdA of 0.70 m² at 1.2 kg/m³).
    public static func typical(massKilograms: Double) -> RoadLoad {
        let mass = max(0, massKilograms)
        return RoadLoad(
            constantNewtons: 0.0087 * mass * 9.806_65,
            linearNewtonsPerMeterPerSecond: 0.001_08 * mass,
            quadraticNewtonsPerMeterPerSecondSquared: 0.003_34 * Double.pow(mass, 2.0 / 3.0))
    }

    /// The resisting force at `speed`.
    @inline(__always)
    public func newtons(at speed: MetersPerSecond) -> Double {
        let v = speed.value
        return constantNewtons + (linearNewtonsPerMeterPerSecond + quadraticNewtonsPerMeterPerSecondSquared * v) * v
    }

    var isFinite: Bool {
        constantNewtons.isFinite && linearNewtonsPerMeterPerSecond.isFinite
            && quadraticNewtonsPerMeterPerSecondSquared.isFinite
    }
}
