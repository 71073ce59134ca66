import FairFuelCore
@testable import FairFuelDomain
import Testing
import TestSupport

@Suite struct FuelModelTests {
    static let model = FuelModel(profile: .midSizePetrol)

    @Test func reproducesTheRatedConsumptionOnTheReferenceCycle() throws {
        let wltc = try FuelFixtures.cycle("wltc_3b")
        for profile in [
            VehicleFuelProfile.midSizePetrol,
            try VehicleFuelProfile(massKilograms: 1_750, ratedLitersPer100Kilometers: 5.1, fuelType: .diesel),
            try VehicleFuelProfile(massKilograms: 1_100, ratedLitersPer100Kilometers: 8.4, fuelType: .lpg),
        ] {
            let model = FuelModel(profile: profile)
            var estimator = FuelEstimator(model: model, coldStartFraction: 0)
            let rate = estimator.drive(wltc)
            #expect(abs(rate - profile.ratedLitersPer100Kilometers) < 1e-9)
        }
    }

    @Test func publishedParametersNeedAlmostNoScaleForTheDefaultCar() {
        // Akçelik & Besley's β1 with EPA-typical road load and a 0.8 L/h idle land on 6.5 L/100 km by themselves.
        #expect(abs(Self.model.referenceCycleScale - 1) < 0.03)
        let raw = Self.model.referenceCycleRawLitersPer100Kilometers ?? 0
        #expect(raw > 6.3 && raw < 6.7)
    }

    @Test func embeddedReferenceCycleIsTheFixtureTrace() throws {
        let wltc = try FuelFixtures.cycle("wltc_3b")
        #expect(wltc.count == ReferenceCycle.speedsTenthsOfKilometerPerHour.count)
        for (index, speed) in wltc.enumerated() {
            #expect(abs(ReferenceCycle.speed(at: index) - speed) < 1e-6, "second \(index)")
        }
    }

    @Test func idlesAtRestAndWhenCoasting() {
        let idle = Self.model.referenceCycleScale * 0.8 / 3.6
        #expect(abs(Self.model.millilitersPerSecond(speed: .zero, accelerationMetersPerSecondSquared: 0) - idle) < 1e-12)
        // Braking hard: the tractive force is negative, the engine idles (no negative fuel).
        let braking = Self.model.millilitersPerSecond(speed: MetersPerSecond(20), accelerationMetersPerSecondSquared: -3)
        #expect(abs(braking - idle) < 1e-12)
    }

    @Test func costsMoreWithSpeedAccelerationAndClimb() {
        func rate(_ v: Double, _ a: Double, _ g: Double = 0) -> Double {
            Self.model.millilitersPerSecond(speed: MetersPerSecond(v), accelerationMetersPerSecondSquared: a, grade: g)
        }
        var previous = rate(1, 0)
        for v in stride(from: 2.0, through: 45, by: 1) {
            #expect(rate(v, 0) > previous)
            previous = rate(v, 0)
        }
        #expect(rate(15, 1) > rate(15, 0.5))
        #expect(rate(15, 0.5) > rate(15, 0))
        #expect(rate(15, 0, 0.05) > rate(15, 0))
        #expect(rate(15, 0, -0.02) < rate(15, 0))
        #expect(rate(15, 0, -0.10) == rate(0, 0))
    }

    @Test func cruisingConsumptionIsPlausible() {
        // 100 km/h on the level: a mid-size petrol car uses about 5–6 L/100 km.
        let v = 100 / 3.6
        let perHundredKilometers = Self.model.millilitersPerSecond(speed: MetersPerSecond(v), accelerationMetersPerSecondSquared: 0) / v * 100
        #expect(perHundredKilometers > 4.5 && perHundredKilometers < 7)
    }

    @Test func epaCoefficientsConvertToSI() {
        let load = RoadLoad(poundsForce: 30, poundsForcePerMph: 0.2, poundsForcePerMphSquared: 0.02)
        #expect(abs(load.constantNewtons - 133.446_648) < 1e-5)
        #expect(abs(load.linearNewtonsPerMeterPerSecond - 0.2 * 4.448_221_615_260_5 / 0.447_04) < 1e-9)
        #expect(abs(load.quadraticNewtonsPerMeterPerSecondSquared - 0.02 * 4.448_221_615_260_5 / (0.447_04 * 0.447_04)) < 1e-12)
        #expect(abs(load.quadraticNewtonsPerMeterPerSecondSquared - 0.445_17) < 1e-5)
        // 60 mph: the same force in either unit system.
        let pounds = 30 + 0.2 * 60 + 0.02 * 3_600
        #expect(abs(load.newtons(at: MetersPerSecond(60 * 0.447_04)) - pounds * 4.448_221_615_260_5) < 1e-9)
    }

    @Test func typicalRoadLoadForTheDefaultCar() {
        let load = RoadLoad.typical(massKilograms: 1_400)
        #expect(abs(load.constantNewtons - 119.4) < 0.1)
        // C = ½·ρ·CdA: a CdA of about 0.7 m² at 1.2 kg/m³.
        let cdA = 2 * load.quadraticNewtonsPerMeterPerSecondSquared / 1.2
        #expect(cdA > 0.6 && cdA < 0.8)
    }

    @Test func profileDefaultsAndDerivedValues() throws {
        let profile = try VehicleFuelProfile()
        #expect(profile == .midSizePetrol)
        #expect(profile.idleLitersPerHour == 0.8)
        #expect(abs(profile.coldStartExtra.value - 0.04) < 1e-12)
        #expect(profile.effectiveRoadLoad == RoadLoad.typical(massKilograms: 1_400))
        let diesel = try VehicleFuelProfile(fuelType: .diesel)
        #expect(diesel.idleLitersPerHour < 0.8)
        let lpg = try VehicleFuelProfile(fuelType: .lpg)
        #expect(lpg.idleLitersPerHour > 0.8)
    }

    @Test func refusesImplausibleProfiles() {
        #expect(throws: FuelProfileError.massOutOfRange(kilograms: 0, allowed: VehicleFuelProfile.massRangeKilograms)) {
            try VehicleFuelProfile(massKilograms: 0)
        }
        #expect(throws: FuelProfileError.self) { try VehicleFuelProfile(massKilograms: .nan) }
        #expect(throws: FuelProfileError.self) { try VehicleFuelProfile(ratedLitersPer100Kilometers: 0) }
        #expect(throws: FuelProfileError.self) { try VehicleFuelProfile(ratedLitersPer100Kilometers: .infinity) }
        #expect(throws: FuelProfileError.self) { try VehicleFuelProfile(idleLitersPerHour: -0.1) }
        #expect(throws: FuelProfileError.self) { try VehicleFuelProfile(coldStartExtra: Liters(3)) }
        let backwards = RoadLoad(constantNewtons: 100, linearNewtonsPerMeterPerSecond: -20, quadraticNewtonsPerMeterPerSecondSquared: 0.1)
        #expect(throws: FuelProfileError.implausibleRoadLoad(backwards)) { try VehicleFuelProfile(roadLoad: backwards) }
    }
}
