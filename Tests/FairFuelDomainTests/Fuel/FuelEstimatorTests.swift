import FairFuelCore
import FairFuelDomain
import Foundation
import Testing
import TestSupport

@Suite struct FuelEstimatorTests {
    static let model = FuelModel(profile: .midSizePetrol)

    static func warm() -> FuelEstimator { FuelEstimator(model: model, coldStartFraction: 0) }

    /// `speeds` (1 Hz) resampled at `hz` by linear interpolation, as (ms, m/s).
    static func resampled(_ speeds: [Double], hz: Int) -> [(Int64, Double)] {
        let stepMs = 1_000 / hz
        var out: [(Int64, Double)] = []
        for second in 0..<(speeds.count - 1) {
            for k in 0..<hz {
                let f = Double(k) / Double(hz)
                out.append((Int64(second * 1_000 + k * stepMs), speeds[second] * (1 - f) + speeds[second + 1] * f))
            }
        }
        out.append((Int64((speeds.count - 1) * 1_000), speeds[speeds.count - 1]))
        return out
    }

    static func gaussian(_ g: inout SeededGenerator) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &g)
        let u2 = Double.random(in: 0..<1, using: &g)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    @Test func tenHertzGivesTheSameFuelAsOneHertz() throws {
        for name in ["udds", "hwfet", "us06"] {
            let speeds = try FuelFixtures.cycle(name)
            var slow = Self.warm()
            slow.drive(speeds)
            var fast = Self.warm()
            for (t, v) in Self.resampled(speeds, hz: 10) { fast.add(timeMs: t, speed: MetersPerSecond(v)) }
            fast.pause()
            // Block means smooth the hardest accelerations a little: −2.4 % on US06.
            let relative = fast.modelLiters.value / slow.modelLiters.value - 1
            print("fuel: \(name) at 10 Hz vs 1 Hz: \(String(format: "%+.2f", relative * 100)) %")
            #expect(abs(relative) < 0.03, "\(name): \(relative)")
            #expect(abs(fast.distance.value / slow.distance.value - 1) < 0.002)
        }
    }

    /// Doppler speed noise (1 σ, never below zero) and how much fuel it may add.
    @Test(arguments: [(0.1, 0.005), (0.3, 0.03)])
    func noisyTenHertzSpeedStaysClose(sigma: Double, tolerance: Double) throws {
        var g = SeededGenerator(seed: 42)
        for name in ["udds", "hwfet", "us06"] {
            let samples = Self.resampled(try FuelFixtures.cycle(name), hz: 10)
            var clean = Self.warm()
            var noisy = Self.warm()
            for (t, v) in samples {
                clean.add(timeMs: t, speed: MetersPerSecond(v))
                noisy.add(timeMs: t, speed: MetersPerSecond(max(0, v + sigma * Self.gaussian(&g))))
            }
            clean.pause()
            noisy.pause()
            let relative = noisy.modelLiters.value / clean.modelLiters.value - 1
            print("fuel: \(name) at 10 Hz with \(sigma) m/s noise: \(String(format: "%+.2f", relative * 100)) %")
            #expect(abs(relative) < tolerance, "\(name): \(relative)")
        }
    }

    @Test func jitteredTimestampsDoNotMatter() throws {
        let speeds = try FuelFixtures.cycle("udds")
        var g = SeededGenerator(seed: 7)
        var clean = Self.warm()
        clean.drive(speeds)
        var jittered = Self.warm()
        for (t, v) in Self.resampled(speeds, hz: 5) {
            jittered.add(timeMs: t + Int64.random(in: -20...20, using: &g), speed: MetersPerSecond(v))
        }
        jittered.pause()
        #expect(abs(jittered.modelLiters.value / clean.modelLiters.value - 1) < 0.02)
    }

    @Test func aTunnelOutageIsBridgedWithoutAnAccelerationSpike() {
        // 25 m/s, a 90 s outage, out of the tunnel at 15 m/s (the driver slowed down inside).
        var estimator = Self.warm()
        for s in 0...60 { estimator.add(timeMs: Int64(s) * 1_000, speed: MetersPerSecond(25)) }
        let before = estimator.modelLiters.value
        for s in 150...210 { estimator.add(timeMs: Int64(s) * 1_000, speed: MetersPerSecond(15)) }
        estimator.pause()
        let across = estimator.modelLiters.value - before
        // Bridged as a ramp from 25 to 15 m/s over 90 s: gentle deceleration, mostly coasting.
        let cruiseAt25 = Self.model.millilitersPerSecond(speed: MetersPerSecond(25), accelerationMetersPerSecondSquared: 0) / 1_000
        #expect(across < cruiseAt25 * 150)
        #expect(estimator.brokenGapCount == 0)
        #expect(abs(estimator.distance.value - (60 * 25 + 90 * 20 + 60 * 15)) < 1)

        // The reverse (slow in, fast out) costs the energy of the speed change, not a spike.
        var reverse = Self.warm()
        for s in 0...60 { reverse.add(timeMs: Int64(s) * 1_000, speed: MetersPerSecond(15)) }
        let start = reverse.modelLiters.value  // counted through 59 s
        reverse.add(timeMs: 150_000, speed: MetersPerSecond(25))
        reverse.pause()
        func rate(_ v: Double, _ a: Double) -> Double {
            Self.model.millilitersPerSecond(speed: MetersPerSecond(v), accelerationMetersPerSecondSquared: a) / 1_000
        }
        let expected = rate(15, 0) * 1 + rate(20, 10.0 / 90) * 90
        #expect(abs(reverse.modelLiters.value - start - expected) < 1e-12)
    }

    @Test func aLongGapEndsTheStreamAndCountsNothing() {
        var estimator = Self.warm()
        for s in 0...30 { estimator.add(timeMs: Int64(s) * 1_000, speed: MetersPerSecond(10)) }
        let before = estimator.add(timeMs: 31_000, speed: MetersPerSecond(10))
        let after = estimator.add(timeMs: 31_000 + 3_600_000, speed: MetersPerSecond(10))
        // The block before the gap is counted; nothing across the hour.
        let perSecond = Self.model.millilitersPerSecond(speed: MetersPerSecond(10), accelerationMetersPerSecondSquared: 0) / 1_000
        #expect(after.value - before.value < 1.5 * perSecond)
        #expect(estimator.brokenGapCount == 1)
    }

    @Test func pauseCountsNothingWhileTheEngineIsOff() {
        var estimator = Self.warm()
        for s in 0...60 { estimator.add(timeMs: Int64(s) * 1_000, speed: .zero) }
        estimator.pause()
        let paused = estimator.liters
        estimator.pause()
        #expect(estimator.liters == paused)
        // Back five seconds later, standing: only idle, and a warm engine.
        for s in 65...125 { estimator.add(timeMs: Int64(s) * 1_000, speed: .zero) }
        estimator.pause()
        let idlePerSecond = Self.model.millilitersPerSecond(speed: .zero, accelerationMetersPerSecondSquared: 0) / 1_000
        #expect(abs(paused.value - 60 * idlePerSecond) < 1e-9)
        let coldStart = 1 - exp(-5_000.0 / 7_200_000)
        let expected = 120 * idlePerSecond + coldStart * 0.04 * Self.model.referenceCycleScale
        #expect(abs(estimator.liters.value - expected) < 1e-9)
    }

    @Test func coldStartAddsTheWarmUpFuelOnce() {
        let idlePerSecond = Self.model.millilitersPerSecond(speed: .zero, accelerationMetersPerSecondSquared: 0) / 1_000
        let extra = 0.04 * Self.model.referenceCycleScale
        var cold = FuelEstimator(model: Self.model)
        for s in 0...600 { cold.add(timeMs: Int64(s) * 1_000, speed: .zero) }
        cold.pause()
        #expect(abs(cold.liters.value - (600 * idlePerSecond + extra)) < 1e-9)
        // After 12 hours parked the engine is cold again.
        for s in 0...600 { cold.add(timeMs: 600_000 + 43_200_000 + Int64(s) * 1_000, speed: .zero) }
        cold.pause()
        #expect(abs(cold.liters.value - (1_200 * idlePerSecond + extra * (2 - exp(-6.0)))) < 1e-9)
        // Half of it after 150 s of running (spread evenly over 300 s).
        var early = FuelEstimator(model: Self.model)
        for s in 0...150 { early.add(timeMs: Int64(s) * 1_000, speed: .zero) }
        early.pause()
        #expect(abs(early.liters.value - (150 * idlePerSecond + extra / 2)) < 1e-9)
    }

    @Test func skipsSamplesOutOfOrderOrImpossible() {
        var estimator = Self.warm()
        var reference = Self.warm()
        for s in 0...100 {
            let t = Int64(s) * 1_000
            let v = MetersPerSecond(Double(s % 20))
            estimator.add(timeMs: t, speed: v)
            reference.add(timeMs: t, speed: v)
            estimator.add(timeMs: t, speed: MetersPerSecond(5))  // duplicate time
            estimator.add(timeMs: t - 500, speed: MetersPerSecond(5))  // backwards
            estimator.add(timeMs: t + 1, speed: MetersPerSecond(.nan))
            estimator.add(timeMs: t + 2, speed: MetersPerSecond(250))
        }
        estimator.pause()
        reference.pause()
        #expect(estimator.modelLiters == reference.modelLiters)
        #expect(estimator.skippedSampleCount == 404)
    }

    @Test func theRunningTotalNeverDecreasesAndSaysHowFarItCounts() throws {
        var g = SeededGenerator(seed: 3)
        var estimator = Self.warm()
        var previous = Liters.zero
        let speeds = try FuelFixtures.cycle("us06")
        for (t, v) in Self.resampled(speeds, hz: 10) {
            let total = estimator.add(timeMs: t, speed: MetersPerSecond(max(0, v + 0.5 * Self.gaussian(&g))))
            #expect(total >= previous)
            previous = total
            if let through = estimator.accountedThrough {
                #expect(through.value <= t && t - through.value <= 1_500)
            }
        }
    }

    @Test func gradeCostsUphillAndSavesDownhill() {
        func drive(grade: Double) -> Double {
            var estimator = Self.warm()
            for s in 0...600 { estimator.add(timeMs: Int64(s) * 1_000, speed: MetersPerSecond(20), grade: grade) }
            estimator.pause()
            return estimator.modelLiters.value
        }
        #expect(drive(grade: 0.04) > 1.5 * drive(grade: 0))
        #expect(drive(grade: -0.01) < drive(grade: 0))
        #expect(drive(grade: 5) == drive(grade: 0.3))
    }

    @Test func calibrationFactorScalesTheReportedLitres() throws {
        var estimator = FuelEstimator(model: Self.model, calibrationFactor: 1.25, coldStartFraction: 0)
        estimator.drive(try FuelFixtures.cycle("hwfet"))
        #expect(abs(estimator.liters.value - 1.25 * estimator.modelLiters.value) < 1e-12)
        estimator.reset()
        #expect(estimator.liters == .zero && estimator.distance == .zero && estimator.accountedThrough == nil)
        #expect(estimator.calibrationFactor == 1.25)
    }

    @Test func aNewCalibrationFactorAppliesFromThenOn() throws {
        let speeds = try FuelFixtures.cycle("udds")
        var estimator = Self.warm()
        estimator.drive(speeds)
        let firstModel = estimator.modelLiters.value
        let first = estimator.liters
        estimator.calibrationFactor = 1.3
        #expect(estimator.liters == first)
        estimator.drive(speeds, startMs: 2_000_000)
        let secondModel = estimator.modelLiters.value - firstModel
        #expect(abs(estimator.liters.value - (first.value + 1.3 * secondModel)) < 1e-12)
    }

    @Test func speedTraceTellsCityFromHighwayWhereDistanceCannot() throws {
        // Same profile, same distance-based rating: the model charges stop-and-go more per km.
        var city = Self.warm()
        let cityRate = city.drive(try FuelFixtures.cycle("udds"))
        var highway = Self.warm()
        let highwayRate = highway.drive(try FuelFixtures.cycle("hwfet"))
        #expect(cityRate > 1.3 * highwayRate)
    }
}

@Suite struct DistanceOnlyFuelEstimatorTests {
    @Test func chargesTheRatedConsumptionPerKilometre() {
        var estimator = DistanceOnlyFuelEstimator(litersPer100Kilometers: 6.5)
        for s in 0...4_000 { estimator.add(timeMs: Int64(s) * 1_000, speed: MetersPerSecond(25)) }
        #expect(abs(estimator.distance.value - 100_000) < 1e-6)
        #expect(abs(estimator.liters.value - 6.5) < 1e-9)
        estimator.calibrationFactor = 1.2
        #expect(abs(estimator.liters.value - 7.8) < 1e-9)
    }

    @Test func bridgesShortGapsAndDropsLongOnesAndPauses() {
        var estimator = DistanceOnlyFuelEstimator(litersPer100Kilometers: 6.5, maxBridgedGapMs: 60_000)
        estimator.add(timeMs: 0, speed: MetersPerSecond(10))
        estimator.add(timeMs: 30_000, speed: MetersPerSecond(20))
        #expect(abs(estimator.distance.value - 450) < 1e-9)
        estimator.add(timeMs: 200_000, speed: MetersPerSecond(20))
        #expect(abs(estimator.distance.value - 450) < 1e-9)
        estimator.pause()
        estimator.add(timeMs: 201_000, speed: MetersPerSecond(20))
        #expect(abs(estimator.distance.value - 450) < 1e-9)
        estimator.add(timeMs: 199_000, speed: MetersPerSecond(20))
        #expect(abs(estimator.distance.value - 450) < 1e-9)
        estimator.reset()
        #expect(estimator.liters == .zero)
    }
}
