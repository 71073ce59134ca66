import FairFuelCore

/// What the fuel model needs to know about one car.
///
/// The rated consumption only sets the model's initial scale (see `FuelModel`); refuel
/// calibration then corrects it to the car as it is actually driven.
public struct VehicleFuelProfile: Sendable, Equatable {
    public static let massRangeKilograms: ClosedRange<Double> = 400...5_000
    public static let ratedRangeLitersPer100Kilometers: ClosedRange<Double> = 1...40
    public static let idleRangeLitersPerHour: ClosedRange<Double> = 0...5
    public static let coldStartRangeLiters: ClosedRange<Double> = 0...1

    /// Mass as driven (kerb mass plus a typical load), kilograms.
    public let massKilograms: Double
    /// Rated combined consumption (WLTP, or the label's combined figure), litres per 100 km.
    public let ratedLitersPer100Kilometers: Double
    /// Warm idle consumption, litres per hour.
    public let idleLitersPerHour: Double
    public let fuelType: FuelType
    /// Coast-down coefficients when known; nil uses `RoadLoad.typical(massKilograms:)`.
    public let roadLoad: RoadLoad?
    /// Extra fuel a fully cold engine burns while warming up.
    public let coldStartExtra: Liters

    /// A mid-size petrol car: 1400 kg, 6.5 L/100 km, 0.8 L/h at idle, typical road load.
    public static let midSizePetrol = VehicleFuelProfile(
        unchecked: 1_400, rated: 6.5, idle: 0.8, fuelType: .petrol, roadLoad: nil, coldStart: 0.8 * coldStartIdleHours)

    /// How many hours of idle fuel a cold start costs: 3 minutes.
    ///
    /// From the EPA Test Car List 2022: bag 1 (cold) minus bag 3 (hot) of the FTP, same
    /// trace, median 0.025 L per litre of displacement over 190 petrol vehicles, which is
    /// 0.05 h at the 0.5 L/h per litre idle rate of `FuelType.idleLitersPerHour`.
    public static let coldStartIdleHours = 0.05

    /// A checked profile; `idleLitersPerHour` defaults to a 1.6 L engine's idle for the fuel
    /// (0.8 L/h petrol) and `coldStartExtra` to `coldStartIdleHours` of that idle.
    public init(
        massKilograms: Double = 1_400, ratedLitersPer100Kilometers: Double = 6.5,
        idleLitersPerHour: Double? = nil, fuelType: FuelType = .petrol, roadLoad: RoadLoad? = nil,
        coldStartExtra: Liters? = nil
    ) throws(FuelProfileError) {
        let idle = idleLitersPerHour ?? fuelType.idleLitersPerHour(displacementLiters: 1.6)
        let coldStart = coldStartExtra?.value ?? idle * Self.coldStartIdleHours
        guard massKilograms.isFinite, Self.massRangeKilograms.contains(massKilograms) else {
            throw .massOutOfRange(kilograms: massKilograms, allowed: Self.massRangeKilograms)
        }
        guard ratedLitersPer100Kilometers.isFinite, Self.ratedRangeLitersPer100Kilometers.contains(ratedLitersPer100Kilometers)
        else {
            throw .ratedConsumptionOutOfRange(
                litersPer100Kilometers: ratedLitersPer100Kilometers, allowed: Self.ratedRangeLitersPer100Kilometers)
        }
        guard idle.isFinite, Self.idleRangeLitersPerHour.contains(idle) else {
            throw .idleRateOutOfRange(litersPerHour: idle, allowed: Self.idleRangeLitersPerHour)
        }
        guard coldStart.isFinite, Self.coldStartRangeLiters.contains(coldStart) else {
            throw .coldStartOutOfRange(liters: coldStart, allowed: Self.coldStartRangeLiters)
        }
        if let roadLoad, !Self.isPlausible(roadLoad) { throw .implausibleRoadLoad(roadLoad) }
        self.init(
            unchecked: massKilograms, rated: ratedLitersPer100Kilometers, idle: idle, fuelType: fuelType,
            roadLoad: roadLoad, coldStart: coldStart)
    }

    private init(
        unchecked mass: Double, rated: Double, idle: Double, fuelType: FuelType, roadLoad: RoadLoad?, coldStart: Double
    ) {
        massKilograms = mass
        ratedLitersPer100Kilometers = rated
        idleLitersPerHour = idle
        self.fuelType = fuelType
        self.roadLoad = roadLoad
        coldStartExtra = Liters(coldStart)
    }

    /// The road load the model uses: the given one, or the typical one for the mass.
    public var effectiveRoadLoad: RoadLoad { roadLoad ?? .typical(massKilograms: massKilograms) }

    private static func isPlausible(_ load: RoadLoad) -> Bool {
        guard load.isFinite, load.constantNewtons >= 0, load.quadraticNewtonsPerMeterPerSecondSquared >= 0 else {
            return false
        }
        // Resisting at every speed up to 200 km/h (B may be slightly negative in coast-down fits).
        var speed = 0.0
        while speed <= 56 {
            if load.newtons(at: MetersPerSecond(speed)) <= 0 { return false }
            speed += 1
        }
        return true
    }
}
