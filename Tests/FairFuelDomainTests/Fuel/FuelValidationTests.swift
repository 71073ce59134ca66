import FairFuelCore
import FairFuelDomain
import Foundation
import Testing
import TestSupport

/// The model against measured fuel: EPA dynamometer results of model-year 2022 petrol cars
/// on the city (UDDS), highway (HWFET) and aggressive (US06) cycles.
///
/// For each vehicle the model gets the test weight, the EPA road-load coefficients and an
/// idle rate from the displacement, then ONE scale factor (least squares on the log
/// ratios of the three cycles, what refuel calibration does over a mix of driving); the
/// error left on each cycle is the model's. The distance-only estimator gets the same
/// treatment; its error is the spread of the measured consumption between cycles.
@Suite struct FuelValidationTests {
    struct Summary {
        var meanAbsolute: Double
        var median: Double
        var p90: Double

        init(_ errors: [Double]) {
            let sorted = errors.map(abs).sorted()
            meanAbsolute = sorted.reduce(0, +) / Double(sorted.count)
            median = Self.percentile(sorted, 0.5)
            p90 = Self.percentile(sorted, 0.9)
        }

        /// Linear interpolation between closest ranks.
        static func percentile(_ sorted: [Double], _ p: Double) -> Double {
            let position = p * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down))
            let upper = min(sorted.count - 1, lower + 1)
            return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
        }

        var text: String {
            String(format: "%5.2f %6.2f %5.2f", meanAbsolute * 100, median * 100, p90 * 100)
        }
    }

    struct Cycles {
        var udds: [Double]
        var hwfet: [Double]
        var us06: [Double]

        /// Distances of the UDDS's first 505 s (FTP bags 1 and 3) and the rest (bag 2), metres.
        var bagMeters: (first: Double, second: Double) { FuelFixtures.bagMeters(udds: udds) }
    }

    /// Per-cycle relative errors (model/measured − 1 after the vehicle's one scale factor).
    struct Errors {
        var city: [Double] = []
        var highway: [Double] = []
        var aggressive: [Double] = []

        mutating func append(model: [Double], measured: [Double]) {
            let logScale = zip(measured, model).map { log($0 / $1) }.reduce(0, +) / Double(model.count)
            let scale = exp(logScale)
            let e = zip(model, measured).map { $0 * scale / $1 - 1 }
            city.append(e[0])
            highway.append(e[1])
            aggressive.append(e[2])
        }
    }

    enum RoadLoadSource { case epa, typicalForMass }

    /// Model consumption (L/100 km) on hot UDDS, FTP composite UDDS (0.43 of a cold start), HWFET, US06.
    static func modelConsumption(
        _ vehicle: FuelFixtures.EPAVehicle, cycles: Cycles, roadLoad: RoadLoadSource
    ) throws -> (hot: Double, composite: Double, highway: Double, aggressive: Double) {
        let profile = try VehicleFuelProfile(
            massKilograms: vehicle.testWeightKilograms,
            idleLitersPerHour: FuelType.petrol.idleLitersPerHour(displacementLiters: vehicle.displacementLiters),
            fuelType: .petrol,
            roadLoad: roadLoad == .epa ? vehicle.roadLoad : nil)
        let model = FuelModel(profile: profile)
        func run(_ speeds: [Double], coldStartFraction: Double) -> Double {
            var estimator = FuelEstimator(model: model, coldStartFraction: coldStartFraction)
            return estimator.drive(speeds)
        }
        // The FTP weights a cold UDDS 0.43 and a hot one 0.57, so its fuel per distance is the
        // hot UDDS plus 0.43 of one cold start.
        return (
            run(cycles.udds, coldStartFraction: 0), run(cycles.udds, coldStartFraction: 0.43),
            run(cycles.hwfet, coldStartFraction: 0), run(cycles.us06, coldStartFraction: 0)
        )
    }

    static func distanceOnly(_ vehicle: FuelFixtures.EPAVehicle, cycles: Cycles) -> [Double] {
        [cycles.udds, cycles.hwfet, cycles.us06].map { speeds in
            var estimator = DistanceOnlyFuelEstimator(litersPer100Kilometers: 6.5)
            for (index, speed) in speeds.enumerated() { estimator.add(timeMs: Int64(index) * 1_000, speed: MetersPerSecond(speed)) }
            return estimator.liters.value / estimator.distance.kilometers * 100
        }
    }

    @Test func modelTracksMeasuredFuelAcrossCycles() throws {
        let cycles = try Cycles(
            udds: FuelFixtures.cycle("udds"), hwfet: FuelFixtures.cycle("hwfet"), us06: FuelFixtures.cycle("us06"))
        let vehicles = try FuelFixtures.epaVehicles(bagMeters: cycles.bagMeters)
        #expect(vehicles.count >= 150)

        var hot = Errors(), composite = Errors(), typical = Errors(), distance = Errors(), distanceComposite = Errors()
        for vehicle in vehicles {
            let measuredHot = [vehicle.cityHot, vehicle.highway, vehicle.aggressive]
            let measuredComposite = [vehicle.cityComposite, vehicle.highway, vehicle.aggressive]
            let m = try Self.modelConsumption(vehicle, cycles: cycles, roadLoad: .epa)
            hot.append(model: [m.hot, m.highway, m.aggressive], measured: measuredHot)
            composite.append(model: [m.composite, m.highway, m.aggressive], measured: measuredComposite)
            let t = try Self.modelConsumption(vehicle, cycles: cycles, roadLoad: .typicalForMass)
            typical.append(model: [t.hot, t.highway, t.aggressive], measured: measuredHot)
            let d = Self.distanceOnly(vehicle, cycles: cycles)
            distance.append(model: d, measured: measuredHot)
            distanceComposite.append(model: d, measured: measuredComposite)
        }

        var report = "Fuel model vs EPA 2022 dynamometer results, \(vehicles.count) petrol vehicles, one scale factor each\n"
        report += "|error| in %                 model: MAE median   P90 | distance only: MAE median   P90\n"
        func row(_ label: String, _ model: [Double], _ baseline: [Double]) {
            report += label.padding(toLength: 29, withPad: " ", startingAt: 0)
                + "        \(Summary(model).text) |                \(Summary(baseline).text)\n"
        }
        row("city (hot UDDS, bags 3+2)", hot.city, distance.city)
        row("highway (HWFET)", hot.highway, distance.highway)
        row("aggressive (US06)", hot.aggressive, distance.aggressive)
        report += "with the rated city figure (FTP composite, model with 0.43 cold start):\n"
        row("city (FTP composite)", composite.city, distanceComposite.city)
        row("highway (HWFET)", composite.highway, distanceComposite.highway)
        row("aggressive (US06)", composite.aggressive, distanceComposite.aggressive)
        report += "road load from mass only (RoadLoad.typical), hot UDDS:\n"
        row("city (hot UDDS)", typical.city, distance.city)
        row("highway (HWFET)", typical.highway, distance.highway)
        row("aggressive (US06)", typical.aggressive, distance.aggressive)
        print(report)

        for (label, errors) in [
            ("city", hot.city), ("highway", hot.highway), ("aggressive", hot.aggressive),
            ("city composite", composite.city), ("highway/composite", composite.highway),
            ("aggressive/composite", composite.aggressive),
        ] {
            let summary = Summary(errors)
            #expect(summary.meanAbsolute < 0.08, "\(label): mean absolute error \(summary.meanAbsolute)")
            #expect(summary.median < 0.08, "\(label): median error \(summary.median)")
        }
        for (label, errors) in [("city", typical.city), ("highway", typical.highway), ("aggressive", typical.aggressive)] {
            #expect(Summary(errors).meanAbsolute < 0.08, "typical road load, \(label)")
        }
        #expect(Summary(hot.city).meanAbsolute < Summary(distance.city).meanAbsolute)
        #expect(Summary(hot.aggressive).meanAbsolute < Summary(distance.aggressive).meanAbsolute)
        #expect(Summary(hot.highway).meanAbsolute < Summary(distance.highway).meanAbsolute)
        #expect(Summary(composite.city).meanAbsolute < Summary(distanceComposite.city).meanAbsolute)
    }
}
