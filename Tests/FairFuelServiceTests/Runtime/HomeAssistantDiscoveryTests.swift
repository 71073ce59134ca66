import FairFuelConfiguration
@testable import FairFuelService
import Foundation
import Testing

/// Home Assistant 2025.10 deprecated `object_id` in discovery configs for `default_entity_id`
/// (`<component>.<object id>`) and 2026.4 stopped honouring it: every config says the new one.
@Suite struct HomeAssistantDiscoveryTests {
    @Test func everyConfigNamesItsEntityWithDefaultEntityID() throws {
        let (_, vehicle, drivers) = try HomeAssistantMonthTests.store()
        var settings = BoardProfile.Uplink(url: "mqtt://127.0.0.1:1883")
        settings.positions = .summary
        let vehicleID = "3f2a9c0d5e6b47a8b1c2d3e4f5a6b7c8"
        let configs = HomeAssistantDiscovery(settings: settings, vehicleID: vehicleID).configs(vehicle: vehicle, drivers: drivers)
        // The driver, the tank, cost and fuel per driver, the tracker.
        #expect(configs.count == 2 + 2 * drivers.count + 1, "\(configs.map(\.topic))")
        var ids: [String] = []
        for config in configs {
            // homeassistant/<component>/<vehicle>/<object>/config
            let levels = config.topic.split(separator: "/").map(String.init)
            #expect(levels.count == 5 && levels[2] == vehicleID && levels[4] == "config", "\(config.topic)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any])
            #expect(json["object_id"] == nil, "\(config.payload)")
            let id = try #require(json["default_entity_id"] as? String, "\(config.payload)")
            #expect(id == "\(levels[1]).fairfuel_\(levels[3])")
            #expect(json["unique_id"] as? String == "\(vehicleID)_\(levels[3])")
            ids.append(id)
        }
        #expect(ids.contains("sensor.fairfuel_driver") && ids.contains("sensor.fairfuel_tank") && ids.contains("device_tracker.fairfuel_position"), "\(ids)")
        #expect(Set(ids).count == ids.count)
    }
}
