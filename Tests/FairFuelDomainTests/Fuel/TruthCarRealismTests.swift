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
    @Test func theTruthCarConsumesAsRealCarsDoAcrossCycles() throws {
        let epa = try EPACycleRatios()
        let vehicles = epa.vehicles
        try #require(vehicles.count >= 150)
        let highwayRatios = epa.highwayRatios, aggressiveRatios = epa.aggressiveRatios
        let percentile = EPACycleRatios.percentile
        var report = String(
            format: "EPA 2022, %d petrol cars: highway/city p10 %.3f p50 %.3f p90 %.3f; US06/city p10 %.3f p50 %.3f p90 %.3f\n",
            vehicles.count, percentile(highwayRatios, 0.1), percentile(highwayRatios, 0.5), percentile(highwayRatios, 0.9),
            percentile(aggressiveRatios, 0.1), percentile(aggressiveRatios, 0.5), percentile(aggressiveRatios, 0.9))

        let car = WillansCar()
        for style in [DrivingStyle.calm, .normal, .aggressive] {
            let highway = epa.highwayRatio(car, style)
            let aggressive = epa.aggressiveRatio(car, style)
            report += String(
                format: "truth car, %@ driver: highway/city %.3f (EPA rank %.0f %%), US06/city %.3f (rank %.0f %%)\n",
                style.name, highway, epa.highwayRank(highway) * 100, aggressive, epa.aggressiveRank(aggressive) * 100)
            #expect(highway >= percentile(highwayRatios, 0.05) && highway <= percentile(highwayRatios, 0.95), "\(style.name)")
            #expect(aggressive >= percentile(aggressiveRatios, 0.05) && aggressive <= percentile(aggressiveRatios, 0.95), "\(style.name)")
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
        let modelHighway = modelled(epa.hwfet) / modelled(epa.udds)
        let modelAggressive = modelled(epa.us06) / modelled(epa.udds)
        report += String(
            format: "FairFuel's model of that car: highway/city %.3f (EPA rank %.0f %%), US06/city %.3f (rank %.0f %%)",
            modelHighway, epa.highwayRank(modelHighway) * 100, modelAggressive, epa.aggressiveRank(modelAggressive) * 100)
        print(report)
    }

    /// The car study's population (`TruthCarPopulation`): each car, driven normally, sits within
    /// five points of the EPA percentile of highway/city ratio it stands for, and within the EPA's
    /// spread (p5 to p95) on the aggressive cycle.
    @Test(arguments: TruthCarPopulation.members)
    func eachPopulationCarSitsInItsEPABand(_ member: TruthCarPopulation.Member) throws {
        let epa = try EPACycleRatios()
        let ratio = epa.highwayRatio(member.car, .normal)
        let rank = epa.highwayRank(ratio)
        let aggressive = epa.aggressiveRatio(member.car, .normal)
        print(String(
            format: "%@: highway/city %.3f, EPA rank %.0f %% (intended p%.0f, where the EPA's is %.3f); US06/city %.3f (rank %.0f %%)",
            member.name, ratio, rank * 100, member.intendedPercentile * 100,
            EPACycleRatios.percentile(epa.highwayRatios, member.intendedPercentile), aggressive, epa.aggressiveRank(aggressive) * 100))
        #expect(abs(rank - member.intendedPercentile) <= TruthCarPopulation.bandHalfWidth,
                "\(member.name): rank \(rank) for ratio \(ratio)")
        // And, like the scenarios' car, a plausible car on the aggressive cycle too.
        #expect(aggressive >= EPACycleRatios.percentile(epa.aggressiveRatios, 0.05)
                && aggressive <= EPACycleRatios.percentile(epa.aggressiveRatios, 0.95), "\(member.name): US06/city \(aggressive)")
    }
}
