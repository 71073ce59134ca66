import FairFuelCore
import FairFuelDomain
import Foundation
import Testing
import TestSupport

/// The scenarios' "true" car (`WillansCar`, TestSupport) against real cars: its consumption on
/// the highway and aggressive cycles relative to the city cycle must lie within the spread of
/// the EPA's 2022 petrol cars, or the scenarios would measure FairFuel against a car that does
/// not exist. Where in that spread it lies is printed beside FairFuel's model of the same car:
/// the month replays' "model alone" error is the distance between the two.
@Suite struct TruthCarRealismTests {
    static func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[Int(Double(sorted.count - 1) * p)] }

    /// The share of `sorted` at or below `value`.
    static func rank(_ value: Double, in sorted: [Double]) -> Double {
        Double(sorted.filter { $0 <= value }.count) / Double(sorted.count)
    }

    /// L/100 km of the truth car over a 1 Hz speed trace, warm, shifting as `style` does.
    static func truthConsumption(_ car: WillansCar, _ speeds: [Double], _ style: DrivingStyle) -> Double {
        var drivetrain = Drivetrain()
        drivetrain.start(atSeconds: 0)
        var liters = 0.0
        var meters = 0.0
        for index in speeds.indices.dropFirst() {
            let acceleration = speeds[index] - speeds[index - 1]
            let speed = (speeds[index] + speeds[index - 1]) / 2
            drivetrain.shift(car: car, speed: speed, acceleration: acceleration, upshiftRPM: style.upshiftRPM, downshiftRPM: style.downshiftRPM)
            liters += car.millilitersPerSecond(speed: speed, acceleration: acceleration, gear: drivetrain.gear, coldness: 0) / 1000
            meters += speed
        }
        return liters / meters * 100_000
    }

    @Test func theTruthCarConsumesAsRealCarsDoAcrossCycles() throws {
        let udds = try FuelFixtures.cycle("udds"), hwfet = try FuelFixtures.cycle("hwfet"), us06 = try FuelFixtures.cycle("us06")
        let cycles = FuelValidationTests.Cycles(udds: udds, hwfet: hwfet, us06: us06)
        let vehicles = try FuelFixtures.epaVehicles(bagMeters: cycles.bagMeters)
        try #require(vehicles.count >= 150)
        let highwayRatios = vehicles.map { $0.highway / $0.cityHot }.sorted()
        let aggressiveRatios = vehicles.map { $0.aggressive / $0.cityHot }.sorted()
        var report = String(
            format: "EPA 2022, %d petrol cars: highway/city p10 %.3f p50 %.3f p90 %.3f; US06/city p10 %.3f p50 %.3f p90 %.3f\n",
            vehicles.count, Self.percentile(highwayRatios, 0.1), Self.percentile(highwayRatios, 0.5), Self.percentile(highwayRatios, 0.9),
            Self.percentile(aggressiveRatios, 0.1), Self.percentile(aggressiveRatios, 0.5), Self.percentile(aggressiveRatios, 0.9))

        let car = WillansCar()
        for style in [DrivingStyle.calm, .normal, .aggressive] {
            let city = Self.truthConsumption(car, udds, style)
            let highway = Self.truthConsumption(car, hwfet, style) / city
            let aggressive = Self.truthConsumption(car, us06, style) / city
            report += String(
                format: "truth car, %@ driver: highway/city %.3f (EPA rank %.0f %%), US06/city %.3f (rank %.0f %%)\n",
                style.name, highway, Self.rank(highway, in: highwayRatios) * 100, aggressive, Self.rank(aggressive, in: aggressiveRatios) * 100)
            #expect(highway >= Self.percentile(highwayRatios, 0.05) && highway <= Self.percentile(highwayRatios, 0.95), "\(style.name)")
            #expect(aggressive >= Self.percentile(aggressiveRatios, 0.05) && aggressive <= Self.percentile(aggressiveRatios, 0.95), "\(style.name)")
        }
        // FairFuel's model of the same car (its mass, rolling resistance and drag area).
        let roadLoad = RoadLoad(
            constantNewtons: car.massKilograms * FuelModel.standardGravity * car.rollingCoefficient, linearNewtonsPerMeterPerSecond: 0,
            quadraticNewtonsPerMeterPerSecondSquared: 0.5 * car.airDensity * car.dragAreaSquareMeters)
        let model = FuelModel(profile: try VehicleFuelProfile(massKilograms: car.massKilograms, roadLoad: roadLoad))
        func modelled(_ speeds: [Double]) -> Double {
            var estimator = FuelEstimator(model: model, coldStartFraction: 0)
            return estimator.drive(speeds)
        }
        let modelHighway = modelled(hwfet) / modelled(udds)
        let modelAggressive = modelled(us06) / modelled(udds)
        report += String(
            format: "FairFuel's model of that car: highway/city %.3f (EPA rank %.0f %%), US06/city %.3f (rank %.0f %%)",
            modelHighway, Self.rank(modelHighway, in: highwayRatios) * 100, modelAggressive,
            Self.rank(modelAggressive, in: aggressiveRatios) * 100)
        print(report)
    }
}
