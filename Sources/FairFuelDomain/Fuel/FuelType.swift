/// The fuel a vehicle burns; sets the energy in a litre and the engine's marginal efficiency.
public enum FuelType: String, Sendable, Equatable, CaseIterable {
    case petrol
    case diesel
    case lpg

    /// Lower heating value by volume, MJ per litre (JEC well-to-wheels fuel properties:
    /// petrol 43.2 MJ/kg at 745 kg/m³, diesel 43.1 at 832, LPG 46.0 at 550).
    public var megajoulesPerLiter: Double {
        switch self {
        case .petrol: 32.2
        case .diesel: 35.9
        case .lpg: 25.3
        }
    }

    /// Fraction of the fuel's energy that reaches the wheels at the margin (engine and driveline).
    ///
    /// For petrol this is what Akçelik & Besley's light-vehicle β1 = 0.09 mL/kJ implies
    /// (1 / (0.09 × 32.2) ≈ 0.345); LPG burns in the same spark-ignition engine; a diesel
    /// is taken as 10 % better. Refuel calibration absorbs what a particular car differs by.
    public var marginalEfficiency: Double {
        switch self {
        case .petrol, .lpg: 1 / (0.09 * 32.2)
        case .diesel: 1.1 / (0.09 * 32.2)
        }
    }

    /// Warm idle consumption of an engine of this displacement, litres per hour.
    ///
    /// 0.5 L/h per litre of displacement for petrol (0.8 L/h for a 1.6 L engine), the
    /// value validated against the EPA dynamometer results (docs/fuel-model.md); other
    /// fuels keep the same idle energy.
    public func idleLitersPerHour(displacementLiters: Double) -> Double {
        0.5 * displacementLiters * FuelType.petrol.megajoulesPerLiter / megajoulesPerLiter
    }
}
