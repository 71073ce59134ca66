import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import Testing
import TestSupport

@Suite struct MotionTrackerTests {
    static func fix(_ lat: Double, _ lon: Double, speed: Double?, mode: GNSSMode = .fix3D, hdop: Double = 0.9) -> GNSSFix {
        GNSSFix(latitude: lat, longitude: lon, speed: speed.map(MetersPerSecond.init), mode: mode, satellitesUsed: 9, hdop: hdop)
    }

    static func tracker() -> MotionTracker { MotionTracker(thresholds: MotionThresholds(), sessionThresholds: SessionThresholds()) }

    @Test func haversineKnownDistance() {
        // Paris (Notre-Dame) to London (Trafalgar Square): about 342.5 km.
        let d = Geodesy.distance(latitude1: 48.8530, longitude1: 2.3499, latitude2: 51.5080, longitude2: -0.1281)
        #expect(abs(d.value - 342_500) < 1_500)
        // One degree of latitude: about 111.2 km.
        #expect(abs(Geodesy.distance(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0).value - 111_195) < 10)
    }

    @Test func stationaryJitterAddsNoDistanceAndNoMovement() {
        var tracker = Self.tracker()
        var generator = SeededGenerator(seed: 3)
        var total = 0.0
        for i in 0..<3_600 {  // an hour parked at 1 Hz, 3 m of noise and speeds up to 1.8 m/s
            let lat = 48.0 + Double.random(in: -3...3, using: &generator) / 111_000
            let lon = 2.0 + Double.random(in: -3...3, using: &generator) / 74_000
            if let step = tracker.accept(Self.fix(lat, lon, speed: Double.random(in: 0...1.8, using: &generator)), at: LinkMilliseconds(Int64(i) * 1000)) {
                total += step.distance.value
            }
        }
        #expect(total == 0)
        #expect(tracker.stoppedSince == LinkMilliseconds(0))
        #expect(tracker.hasBeenStopped(forMs: 3_000_000, at: LinkMilliseconds(3_599_000)))
    }

    @Test func drivingAddsItsDistance() {
        var tracker = Self.tracker()
        var total = 0.0
        for i in 0...100 {  // 100 s north at 15 m/s
            let lat = 48.0 + Double(i) * 15 / 111_195
            if let step = tracker.accept(Self.fix(lat, 2.0, speed: 15), at: LinkMilliseconds(Int64(i) * 1000)) {
                total += step.distance.value
            }
        }
        #expect(abs(total - 1_500) < 2)
        #expect(tracker.stoppedSince == nil)
    }

    @Test func gatesOnModeAndHDOP() {
        var tracker = Self.tracker()
        #expect(tracker.accept(Self.fix(48, 2, speed: 10, mode: .noFix), at: LinkMilliseconds(0)) == nil)
        #expect(tracker.accept(Self.fix(48, 2, speed: 10, hdop: 12), at: LinkMilliseconds(1000)) == nil)
        #expect(tracker.accept(GNSSFix(mode: .fix3D), at: LinkMilliseconds(2000)) == nil)
        #expect(tracker.rejectedGateCount == 3)
    }

    @Test func rejectsSpeedAndPositionOutliers() {
        var tracker = Self.tracker()
        _ = tracker.accept(Self.fix(48, 2, speed: 20), at: LinkMilliseconds(0))
        #expect(tracker.accept(Self.fix(48.0002, 2, speed: 80), at: LinkMilliseconds(1000)) == nil)
        // 2 km in one second at 20 m/s: multipath.
        #expect(tracker.accept(Self.fix(48.018, 2, speed: 20), at: LinkMilliseconds(2000)) == nil)
        let good = tracker.accept(Self.fix(48.0005, 2, speed: 20), at: LinkMilliseconds(3000))
        #expect(good != nil)
        #expect(tracker.rejectedOutlierCount == 2)
    }

    @Test func longOutageAssumesStoppedSinceTheLastFix() {
        var tracker = Self.tracker()
        _ = tracker.accept(Self.fix(48, 2, speed: 3), at: LinkMilliseconds(0))
        #expect(!tracker.hasBeenStopped(forMs: 180_000, at: LinkMilliseconds(300_000)))
        #expect(tracker.hasBeenStopped(forMs: 180_000, at: LinkMilliseconds(600_000)))
        #expect(tracker.stopBegan(at: LinkMilliseconds(600_000)) == LinkMilliseconds(0))
    }
}
