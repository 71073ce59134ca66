import FairFuelCore
import FairFuelDomain
import Foundation
import Testing
import TestSupport

@Suite struct FuelCalibrationTests {
    /// A refuel period of 500 km in which the car truly used `ratio` times the model's 35 L.
    static func refuel(_ calibration: inout FuelCalibration, ratio: Double, modelLiters: Double = 35) -> Double {
        calibration.record(trueLiters: Liters(modelLiters * ratio), modelLiters: Liters(modelLiters), distance: Meters(500_000))
    }

    @Test func convergesFromAWrongStartInAFewRefuels() {
        // The car uses 35 % more than its rating suggests; refuels scatter by ±3 % (pump shut-off).
        var g = SeededGenerator(seed: 11)
        var calibration = FuelCalibration()
        #expect(calibration.factor == 1)
        var factors: [Double] = []
        for _ in 0..<8 {
            factors.append(Self.refuel(&calibration, ratio: 1.35 * Double.random(in: 0.97...1.03, using: &g)))
        }
        #expect(factors[0] > 1.1 && factors[0] < 1.25)  // halfway (in log space) after the first
        for factor in factors.dropFirst() { #expect(abs(factor / 1.35 - 1) < 0.04) }
        #expect(calibration.history.count == 8)
        #expect(calibration.history.allSatisfy { $0.outcome == .accepted })
        #expect(calibration.history.last?.factorAfter == calibration.factor)
    }

    @Test func oneOddRefuelDoesNotSwingIt() {
        var calibration = FuelCalibration()
        for _ in 0..<4 { Self.refuel(&calibration, ratio: 1.2) }
        let settled = calibration.factor
        #expect(abs(settled - 1.2) < 1e-12)
        // A forgotten partial fill: the pump's litres cover only part of the period.
        Self.refuel(&calibration, ratio: 0.6)
        #expect(abs(calibration.factor / settled - 1) < 0.001)
        // A forgotten full fill: two tanks in one period.
        Self.refuel(&calibration, ratio: 2.4)
        #expect(abs(calibration.factor / settled - 1) < 0.001)
        #expect(calibration.history.last?.outcome == .clamped)
        // A real change (a roof box, winter tyres) wins once it repeats.
        for _ in 0..<3 { Self.refuel(&calibration, ratio: 1.4) }
        #expect(abs(calibration.factor - 1.4) < 1e-12)
    }

    @Test func staysWithinTheBand() {
        var high = FuelCalibration()
        for _ in 0..<6 { Self.refuel(&high, ratio: 10) }
        #expect(abs(high.factor - 2) < 1e-12)
        var low = FuelCalibration()
        for _ in 0..<6 { Self.refuel(&low, ratio: 0.2, modelLiters: 100) }
        #expect(abs(low.factor - 0.5) < 1e-12)
    }

    @Test func ignoresPeriodsTooSmallToMeasure() {
        var calibration = FuelCalibration()
        Self.refuel(&calibration, ratio: 1.2)
        Self.refuel(&calibration, ratio: 1.2)
        Self.refuel(&calibration, ratio: 1.2)
        let settled = calibration.factor
        calibration.record(trueLiters: Liters(4), modelLiters: Liters(2), distance: Meters(300_000))
        calibration.record(trueLiters: Liters(30), modelLiters: Liters(15), distance: Meters(20_000))
        calibration.record(trueLiters: Liters(30), modelLiters: .zero, distance: Meters(300_000))
        calibration.record(trueLiters: Liters(.nan), modelLiters: Liters(30), distance: Meters(300_000))
        calibration.record(trueLiters: Liters(30), modelLiters: Liters(30), distance: Meters(.infinity))
        #expect(calibration.factor == settled)
        #expect(calibration.history.suffix(5).map(\.outcome) == [.tooLittleFuel, .tooShort, .invalid, .invalid, .invalid])
        #expect(calibration.history.suffix(5).allSatisfy { $0.factorAfter == settled })
    }

    @Test func restoresFromItsHistory() {
        var g = SeededGenerator(seed: 5)
        var calibration = FuelCalibration()
        for _ in 0..<40 { Self.refuel(&calibration, ratio: Double.random(in: 0.4...2.5, using: &g)) }
        #expect(calibration.history.count == CalibrationPolicy().historyCapacity)
        let restored = FuelCalibration(history: calibration.history)
        #expect(restored == calibration)
        #expect(restored.factor == calibration.factor)
    }

    @Test func estimatesConvergeToTheCarsRealConsumption() throws {
        // A car whose real consumption is 28 % above what its rating makes the model say.
        let model = FuelModel(profile: .midSizePetrol)
        let cycles = try ["udds", "hwfet", "us06"].map(FuelFixtures.cycle)
        let truth = 1.28
        var calibration = FuelCalibration()
        var g = SeededGenerator(seed: 9)
        var lastError = 1.0
        for _ in 0..<5 {
            var estimator = FuelEstimator(model: model, calibrationFactor: calibration.factor)
            var start: Int64 = 0
            // A tank's worth of mixed driving: about 600 km.
            for _ in 0..<14 {
                for cycle in cycles {
                    estimator.drive(cycle, startMs: start)
                    start += Int64(cycle.count) * 1_000 + 60_000
                }
            }
            let trueLiters = estimator.modelLiters.value * truth * Double.random(in: 0.97...1.03, using: &g)
            lastError = estimator.liters.value / trueLiters - 1
            calibration.record(trueLiters: Liters(trueLiters), modelLiters: estimator.modelLiters, distance: estimator.distance)
        }
        #expect(abs(lastError) < 0.05)
        #expect(abs(calibration.factor / truth - 1) < 0.04)
    }
}
