import FairFuelCore
import FairFuelEdges
import FairFuelService
import FairFuelStore
import Foundation
import Testing

/// What the family and technicians change reaches the running service without a restart.
@Suite struct LiveConfigurationTests {
    static func status(_ runtime: ServiceRuntime) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(runtime.statusJSON().utf8)) as! [String: Any]
    }

    @Test("a new calibration and a new vehicle profile reach the running service on reload; status shows the factor")
    func calibrationAndProfileReload() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-live-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storePath = directory + "/fairfuel.db"
        let store = try TripStore(path: storePath)
        let logger = Logger(minimumLevel: .debug, style: .plain, sink: { _ in })
        let runtime = try ServiceRuntime(options: .init(
            board: .piZero2W, storePath: storePath, port: directory + "/no-mcu", controlSocketPath: nil, logger: logger))
        #expect(try Self.status(runtime)["fuel_scale"] as? Double == 1)
        #expect(try Self.status(runtime)["untracked_policy"] as? String == "owner")

        // A full fill recalibrated the store (as `fairfuel refuel add` does), then asked for a reload.
        var vehicle = try store.vehicle()
        vehicle.fuelScale = 1.0825
        vehicle.untrackedPolicy = .proRata
        try store.setVehicle(vehicle)
        #expect(try Self.status(runtime)["fuel_scale"] as? Double == 1, "nothing changes before the reload")
        runtime.reloadProvisioning()
        #expect(try Self.status(runtime)["fuel_scale"] as? Double == 1.0825)
        #expect(try Self.status(runtime)["untracked_policy"] as? String == "pro_rata")

        // A heavier car: a new fuel model from now on, the factor kept.
        vehicle.massKilograms = 1_900
        try store.setVehicle(vehicle)
        runtime.reloadProvisioning()
        #expect(try Self.status(runtime)["fuel_scale"] as? Double == 1.0825)
    }

    @Test("status shows the store's estimated fuel in the tank, null before a full-tank refuel, at each request")
    func statusShowsTheTankLevel() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-live-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storePath = directory + "/fairfuel.db"
        let store = try TripStore(path: storePath)
        let logger = Logger(minimumLevel: .debug, style: .plain, sink: { _ in })
        let runtime = try ServiceRuntime(options: .init(
            board: .piZero2W, storePath: storePath, port: directory + "/no-mcu", controlSocketPath: nil, logger: logger))
        #expect(try Self.status(runtime)["tank_l"] is NSNull)
        let full: Int64 = 1_795_000_000_000
        try store.addRefuel(RefuelInput(atUTCMs: full, liters: 40, cost: MinorUnits(7_000)))
        #expect(try Self.status(runtime)["tank_l"] as? Double == store.vehicle().tankLiters)
        try store.addUntracked(fromUTCMs: full + 60_000, toUTCMs: full + 3_600_000, distanceMeters: 30_000, fuelLiters: 2.5)
        #expect(try Self.status(runtime)["tank_l"] as? Double == store.vehicle().tankLiters - 2.5)
    }
}
