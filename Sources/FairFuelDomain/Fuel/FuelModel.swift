import FairFuelCore

/// Instantaneous fuel rate from speed, acceleration and road grade.
///
/// The power-based instantaneous model of Akçelik & Besley (2003), "Operating cost,
/// fuel consumption, and emission models in aaSIDRA and aaMOTION", 25th Conference of
/// Australian Institutes of Transport Research (CAITR 2003), Adelaide; it descends from
/// Bowyer, Akçelik & Biggs (1985), "Guide to fuel consumption analyses for urban traffic
/// management", ARRB Special Report 32:
///
///     f = α + β1·R_T·v + [β2·M·a²·v / 1000]  (the bracket only when a > 0)   if R_T > 0
///     f = α                                                              otherwise
///     R_T = (A + B·v + C·v² + M·a + M·g·sin θ) / 1000,  tan θ = G          (kN)
///
/// f in mL/s, v in m/s, a in m/s², M in kg, G the grade (rise over run). α is the idle
/// rate, β1 = 1 / (marginal efficiency × fuel energy) (0.09 mL/kJ for petrol, the paper's
/// light-vehicle value) and β2 = β1 / 3 s²/m (the paper's 0.03 mL/(kJ·m/s²) for petrol),
/// the extra fuel of hard acceleration. Every term is then multiplied by
/// `referenceCycleScale`, chosen so that the model reproduces the rated consumption on
/// the WLTC class 3b; refuel calibration multiplies on top of that (`FuelEstimator`).
public struct FuelModel: Sendable, Equatable {
    public static let standardGravity = 9.806_65

    public let profile: VehicleFuelProfile
    /// What every term is multiplied by: the rated consumption over the unscaled model's on
    /// the reference cycle, or the scale given to `init(profile:scale:)`.
    public let referenceCycleScale: Double
    /// The unscaled model's consumption on the reference cycle, litres per 100 km; nil for a model built with `scale`.
    public let referenceCycleRawLitersPer100Kilometers: Double?

    // Scaled coefficients: α (mL/s), β1 (mL/kJ), β2 (mL/(kJ·m/s²)).
    let idleMillilitersPerSecond: Double
    let beta1MillilitersPerKilojoule: Double
    let beta2: Double
    let coldStartExtraMilliliters: Double
    let massKilograms: Double
    let roadLoad: RoadLoad

    /// A model scaled to reproduce `profile`'s rated consumption on the reference cycle.
    public init(profile: VehicleFuelProfile) {
        let raw = FuelModel(profile: profile, scale: 1)
        let rawRate = raw.referenceCycleLitersPer100Kilometers()
        let scale = rawRate > 0 && rawRate.isFinite ? profile.ratedLitersPer100Kilometers / rawRate : 1
        self.init(profile: profile, scale: scale, rawReference: rawRate)
    }

    /// A model with an explicit scale instead of the rated-consumption one (for validation).
    public init(profile: VehicleFuelProfile, scale: Double) {
        self.init(profile: profile, scale: scale, rawReference: nil)
    }

    private init(profile: VehicleFuelProfile, scale: Double, rawReference: Double?) {
        self.profile = profile
        referenceCycleScale = scale
        referenceCycleRawLitersPer100Kilometers = rawReference
        let beta1 = 1 / (profile.fuelType.marginalEfficiency * profile.fuelType.megajoulesPerLiter)
        idleMillilitersPerSecond = scale * profile.idleLitersPerHour / 3.6
        beta1MillilitersPerKilojoule = scale * beta1
        beta2 = scale * beta1 / 3
        coldStartExtraMilliliters = scale * profile.coldStartExtra.value * 1_000
        massKilograms = profile.massKilograms
        roadLoad = profile.effectiveRoadLoad
    }

    /// Fuel rate in millilitres per second.
    ///
    /// `accelerationMetersPerSecondSquared` is the mean over the interval the rate applies
    /// to; `grade` is rise over run (0.05 for 5 % uphill), 0 when unknown.
    @inline(__always)
    public func millilitersPerSecond(speed: MetersPerSecond, accelerationMetersPerSecondSquared a: Double, grade: Double = 0)
        -> Double
    {
        let v = speed.value
        let mass = massKilograms
        let resisting = v > 0 ? roadLoad.newtons(at: speed) : 0
        // The grade's share of gravity along the road: sin(atan(G)).
        let slope = grade / (1 + grade * grade).squareRoot()
        let tractiveKilonewtons = (resisting + mass * (a + FuelModel.standardGravity * slope)) / 1_000
        guard tractiveKilonewtons > 0, v > 0 else { return idleMillilitersPerSecond }
        var rate = idleMillilitersPerSecond + beta1MillilitersPerKilojoule * tractiveKilonewtons * v
        if a > 0 { rate += beta2 * mass * a * a * v / 1_000 }
        return rate
    }

    /// This model's consumption on the reference cycle, driven warm, litres per 100 km.
    public func referenceCycleLitersPer100Kilometers() -> Double {
        var estimator = FuelEstimator(model: self, coldStartFraction: 0)
        let cycle = ReferenceCycle.speedsTenthsOfKilometerPerHour
        for index in cycle.indices {
            let speed = MetersPerSecond(ReferenceCycle.speed(at: index))
            estimator.add(timeMs: Int64(index) * ReferenceCycle.intervalMs, speed: speed)
        }
        estimator.pause()
        return estimator.modelLiters.value / estimator.distance.kilometers * 100
    }
}
