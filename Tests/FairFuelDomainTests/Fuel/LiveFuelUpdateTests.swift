import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import Testing

/// A recalibration or a new vehicle profile applies to the running domain from then on.
@Suite struct LiveFuelUpdateTests {
    static let t0: Int64 = 1_772_434_800_000

    /// Fuel counted over `seconds` of steady 15 m/s driving, starting at `from` seconds.
    static func drive(_ monitor: inout DrivingMonitor, from: Int, seconds: Int) -> Double {
        let before = monitor.totalFuel.value
        for second in from..<(from + seconds) {
            let fix = GNSSFix(
                utc: UTCTimestamp(millisecondsSinceEpoch: t0 + Int64(second) * 1000), latitude: 48 + Double(second) * 15 / 111_195,
                longitude: 11, speed: MetersPerSecond(15), mode: .fix3D, satellitesUsed: 9, hdop: 0.9)
            monitor.handle(.fix(fix, at: LinkMilliseconds(Int64(second) * 1000))) { _ in }
        }
        return monitor.totalFuel.value - before
    }

    static func monitor() throws -> DrivingMonitor {
        DrivingMonitor(
            configuration: MonitorConfiguration(), directory: DriverDirectory(),
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile()), coldStartFraction: 0))
    }

    @Test("a new calibration factor scales the fuel counted from then on, not before")
    func calibrationAppliesFromNow() throws {
        var monitor = try Self.monitor()
        _ = Self.drive(&monitor, from: 0, seconds: 60)
        let before = Self.drive(&monitor, from: 60, seconds: 600)
        monitor.update(calibrationFactor: 1.5)
        #expect(monitor.fuelCalibrationFactor == 1.5)
        let after = Self.drive(&monitor, from: 660, seconds: 600)
        #expect(abs(after / before - 1.5) < 0.03, "\(after) L after, \(before) L before")
    }

    @Test("a new vehicle profile goes on from what was counted: the total never stalls or drops")
    func newProfileGoesOn() throws {
        var monitor = try Self.monitor()
        _ = Self.drive(&monitor, from: 0, seconds: 600)
        let counted = monitor.totalFuel.value
        let heavier = FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile(massKilograms: 2_200)))
        monitor.update(fuel: heavier)
        #expect(monitor.totalFuel.value == counted)
        let next = Self.drive(&monitor, from: 600, seconds: 600)
        #expect(next > counted * 0.9, "\(next) L in the next ten minutes, \(counted) L in the first")
    }
}
