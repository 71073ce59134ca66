import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// Home Assistant's MQTT discovery from the service's uplink, against a real Mosquitto
    /// (docs/mqtt.md, "Home Assistant discovery"): retained configs on connect, the current
    /// driver after a tap, a device tracker only when positions leave the car.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"))
    struct UplinkHomeAssistantTests {
        /// `topic payload` lines of a `mosquitto_sub -v` log whose topic starts with `prefix`.
        static func messages(_ log: String, prefix: String) -> [(topic: String, payload: String)] {
            log.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count >= 1, parts[0].hasPrefix(prefix) else { return nil }
                return (String(parts[0]), parts.count == 2 ? String(parts[1]) : "")
            }
        }

        static func json(_ text: String) -> [String: Any]? {
            try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }

        @Test(.timeLimit(.minutes(1)))
        func discoveryOnConnectAndTheDriverAfterATapWithoutPositions() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let store = try rig.openStore()
                let vehicle = try store.vehicleUplinkID()
                let vehicleName = try store.vehicle().name
                let drivers = try store.directory().drivers
                #expect(drivers.map(\.name) == ["Anna", "Ben"])
                let board = try UplinkServiceTests.writeBoard(rig, port: harness.port)
                let everything = try harness.subscribe(topic: "#", count: 100_000, seconds: 55)
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the uplink connects", seconds: 20) { UplinkServiceTests.uplink(rig)?["state"] as? String == "connected" }

                // A subscriber that comes later gets the retained configs: the driver, the tank, two per driver.
                let expected = 2 + 2 * drivers.count
                let discovery = try harness.subscribe(topic: "homeassistant/#", count: 1_000, seconds: 3)
                let lines = harness.lines(of: discovery, seconds: 10)
                let configs = Self.messages(lines.joined(separator: "\n"), prefix: "homeassistant/").filter { $0.topic.hasSuffix("/config") }
                #expect(configs.count == expected, "\(lines)")
                var uniqueIDs: [String: [String: Any]] = [:]
                for config in configs {
                    let json = try #require(Self.json(config.payload), "\(config)")
                    let uniqueID = try #require(json["unique_id"] as? String)
                    uniqueIDs[uniqueID] = json
                    #expect(config.topic.hasPrefix("homeassistant/sensor/\(vehicle)/") && config.topic.hasSuffix("/config"), "\(config.topic)")
                    #expect(json["availability_topic"] as? String == "fairfuel/\(vehicle)/status")
                    #expect(json["payload_available"] as? String == "online" && json["payload_not_available"] as? String == "offline")
                    let device = try #require(json["device"] as? [String: Any])
                    #expect(device["identifiers"] as? [String] == [vehicle])
                    #expect(device["name"] as? String == vehicleName && device["manufacturer"] as? String == "FairFuel")
                    #expect(device["sw_version"] as? String != nil && device["model"] as? String != nil)
                }
                let driver = try #require(uniqueIDs["\(vehicle)_driver"])
                #expect(driver["state_topic"] as? String == "homeassistant/sensor/\(vehicle)/driver/state")
                for each in drivers {
                    let cost = try #require(uniqueIDs["\(vehicle)_driver\(each.id.rawValue)_cost_month"], "\(uniqueIDs.keys)")
                    #expect(cost["unit_of_measurement"] as? String == "EUR" && cost["device_class"] as? String == "monetary")
                    #expect(cost["value_template"] as? String == "{{ value_json.cost }}")
                    #expect((cost["name"] as? String)?.hasPrefix(each.name) == true)
                    let fuel = try #require(uniqueIDs["\(vehicle)_driver\(each.id.rawValue)_fuel_month"])
                    #expect(fuel["unit_of_measurement"] as? String == "L" && fuel["state_class"] as? String == "total")
                    #expect(fuel["state_topic"] as? String == cost["state_topic"] as? String)
                }
                #expect(!lines.contains { $0.contains("device_tracker") }, "positions none: no tracker")

                // Anna taps: the current driver says her name; her session ends: none again.
                try rig.waitUntil("the current driver is Anna", seconds: 30) {
                    everything.log.contains("homeassistant/sensor/\(vehicle)/driver/state Anna\n")
                }
                try rig.waitUntil("the sim reaches the scenario's end", seconds: 40) { !sim.isRunning }
                try rig.waitUntil("no driver once the sessions ended", seconds: 10) {
                    Self.messages(everything.log, prefix: "homeassistant/sensor/\(vehicle)/driver/state").last?.payload == "none"
                }
                // A baseline fill-up before the drive, and a refuel now (this month, by the wall
                // clock): this month's cost per driver is their share of the second bill, as
                // `fairfuel split --json` has it.
                let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-5))
                for (index, at) in ["2026-03-01T12:00:00Z", now].enumerated() {
                    let result = try FairFuelExecutable.run(
                        ["refuel", "add", "--db", rig.databasePath, "--at", at,
                         "--liters", "\(30 + index * 10)", "--cost", "\(60 + index * 10).40", "--control", rig.controlPath],
                        environment: ["FAIRFUEL_BOARD": board])
                    #expect(result.exitCode == 0, "\(result.standardError)")
                }
                let split = try FairFuelExecutable.run(["split", "--json", "--db", rig.databasePath])
                let bills = try #require(try JSONSerialization.jsonObject(with: Data(split.standardOutput.utf8)) as? [[String: Any]])
                let annaCents = bills.filter { $0["at_utc"] as? String != "2026-03-01T12:00:00.000Z" }
                    .flatMap { $0["shares"] as? [[String: Any]] ?? [] }.filter { $0["driver"] as? String == drivers[0].name }.compactMap { $0["cost_cents"] as? Int }.reduce(0, +)
                #expect(annaCents > 0, "\(split.standardOutput)")
                let monthTopic = "homeassistant/sensor/\(vehicle)/driver\(drivers[0].id.rawValue)_month/state"
                var state: [String: Any] = [:]
                try rig.waitUntil("Anna's cost this month is her share", seconds: 10) {
                    state = Self.messages(everything.log, prefix: monthTopic).last.flatMap { Self.json($0.payload) } ?? [:]
                    return (state["cost"] as? Double).map { Int(($0 * 100).rounded()) } == annaCents
                }
                #expect(state["currency"] as? String == "EUR" && state["fuel_l"] is Double, "\(state)")
                let month = Self.messages(everything.log, prefix: monthTopic)
                let driverStates = Self.messages(everything.log, prefix: "homeassistant/sensor/\(vehicle)/driver/state").map(\.payload)
                print("home assistant: \(configs.count) configs, current driver \(driverStates), \(drivers[0].name)'s month \(month.last?.payload ?? "-")")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
                let log = everything.log
                #expect(log.contains("homeassistant/sensor/\(vehicle)/driver/state Ben\n"))
                for word in ["latitude", "longitude", "\"start\"", "\"track\"", "device_tracker"] {
                    #expect(!log.contains(word), "positions none: no \(word) anywhere")
                }
            }
        }

        /// The tank's estimated litres (`{"tank_l":…}`), null as Home Assistant's unknown.
        static func tankLiters(_ payload: String) -> Double?? {
            guard let json = Self.json(payload), let value = json["tank_l"] else { return nil }
            return .some(value as? Double)
        }

        /// The estimated fuel in the tank: its config retained, its state null before a full-tank
        /// refuel, then the store's figure after the drive (in `status` too), null again when the
        /// full refuel is removed.
        @Test(.timeLimit(.minutes(1)))
        func theTankSensorCarriesTheStoresEstimate() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                let capacity = try rig.openStore().vehicle().tankLiters
                let board = try UplinkServiceTests.writeBoard(rig, port: harness.port)
                let everything = try harness.subscribe(topic: "#", count: 100_000, seconds: 55)
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the uplink connects", seconds: 20) { UplinkServiceTests.uplink(rig)?["state"] as? String == "connected" }
                let stateTopic = "homeassistant/sensor/\(vehicle)/tank/state"
                try rig.waitUntil("the tank's first state", seconds: 10) { everything.log.contains(stateTopic + " ") }
                let first = try #require(Self.messages(everything.log, prefix: stateTopic).first)
                #expect(Self.tankLiters(first.payload) == .some(nil), "no refuel yet: unknown, \(first.payload)")
                #expect(Self.json(first.payload)?["capacity_l"] as? Double == capacity)
                #expect(rig.status()?.json["tank_l"] is NSNull)

                // A full tank the day before the drive.
                let refuel = try FairFuelExecutable.run(
                    ["refuel", "add", "--db", rig.databasePath, "--at", "2026-03-01T12:00:00Z", "--liters", "40", "--cost", "70.00",
                     "--control", rig.controlPath],
                    environment: ["FAIRFUEL_BOARD": board])
                #expect(refuel.exitCode == 0, "\(refuel.standardError)")
                try rig.waitUntil("the sim reaches the scenario's end", seconds: 40) { !sim.isRunning }
                // Once both trips are in the store, the published level is the store's.
                var level = 0.0
                try rig.waitUntil("the tank state is the store's estimate after the trips", seconds: 15) {
                    let ended = Self.messages(everything.log, prefix: "homeassistant/sensor/\(vehicle)/driver/state").last?.payload == "none"
                    guard ended, try rig.trips().count >= 2, let liters = try rig.openStore().estimatedTankLiters() else { return false }
                    level = liters
                    let published = Self.messages(everything.log, prefix: stateTopic).last.flatMap { Self.tankLiters($0.payload) } ?? nil
                    return published.map { abs($0 - liters) < 0.0005 } == true
                        && (rig.status()?.json["tank_l"] as? Double).map { abs($0 - liters) < 0.0005 } == true
                }
                let driven = try rig.trips().reduce(0) { $0 + ($1.json["fuel_l"] as? Double ?? .nan) }
                #expect(level < capacity && abs(capacity - level - driven) < 0.01, "\(capacity) L - \(driven) L driven = \(level) L")

                // A later subscriber gets the config and the state, retained.
                let later = try harness.subscribe(topic: "homeassistant/sensor/\(vehicle)/tank/#", count: 2, seconds: 5)
                let retained = Self.messages(harness.lines(of: later, seconds: 10).joined(separator: "\n"), prefix: "homeassistant/")
                let config = try #require(retained.first { $0.topic.hasSuffix("/tank/config") }.flatMap { Self.json($0.payload) }, "\(retained)")
                #expect(config["unique_id"] as? String == "\(vehicle)_tank")
                #expect(config["state_topic"] as? String == stateTopic)
                #expect(config["value_template"] as? String == "{{ value_json.tank_l }}")
                #expect(config["device_class"] as? String == "volume_storage" && config["unit_of_measurement"] as? String == "L")
                #expect(config["availability_topic"] as? String == "fairfuel/\(vehicle)/status")
                let state = try #require(retained.first { $0.topic == stateTopic })
                #expect((Self.tankLiters(state.payload) ?? nil).map { abs($0 - level) < 0.0005 } == true, "\(state.payload)")

                // The full refuel removed: unknown again.
                let id = try #require(try rig.openStore().refuels().first?.id)
                let remove = try FairFuelExecutable.run(
                    ["refuel", "remove", "\(id)", "--db", rig.databasePath, "--control", rig.controlPath], environment: ["FAIRFUEL_BOARD": board])
                #expect(remove.exitCode == 0, "\(remove.standardError)")
                try rig.waitUntil("the tank is unknown without a full refuel", seconds: 10) {
                    Self.messages(everything.log, prefix: stateTopic).last.flatMap { Self.tankLiters($0.payload) } == .some(nil)
                }
                print("tank: capacity \(capacity) L, \(driven) L driven, published \(level) L")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func anEmptyPrefixPublishesNoDiscovery() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let board = try UplinkServiceTests.writeBoard(rig, port: harness.port, extra: "homeassistant_prefix = \"\"\n")
                let everything = try harness.subscribe(topic: "#", count: 1_000, seconds: 20)
                let run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the uplink connects", seconds: 20) { UplinkServiceTests.uplink(rig)?["state"] as? String == "connected" }
                let vehicle = try rig.openStore().vehicleUplinkID()
                try rig.waitUntil("online is retained", seconds: 10) { everything.log.contains("fairfuel/\(vehicle)/status online") }
                // A refuel makes the service reload and publish its figures, were discovery on.
                try UplinkServiceTests.addRefuels(rig, board: board, count: 1)
                try rig.waitUntil("the refuel is sent", seconds: 10) { (UplinkServiceTests.uplink(rig)?["sent"] as? Int ?? 0) >= 2 }
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
                #expect(!everything.log.contains("homeassistant/"), "\(everything.log)")
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func withTrackPositionsTheCarIsADeviceTracker() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                let board = try UplinkServiceTests.writeBoard(rig, port: harness.port, extra: "positions = \"track\"\n")
                let everything = try harness.subscribe(topic: "#", count: 100_000, seconds: 55)
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.startRun(extra: ["--board", board])
                let topic = "homeassistant/device_tracker/\(vehicle)/position/config"
                try rig.waitUntil("the device tracker's config arrives", seconds: 20) { everything.log.contains(topic + " ") }
                let config = try #require(Self.messages(everything.log, prefix: topic).first.flatMap { Self.json($0.payload) })
                #expect(config["unique_id"] as? String == "\(vehicle)_position")
                #expect(config["json_attributes_topic"] as? String == "homeassistant/device_tracker/\(vehicle)/position/attributes")
                #expect(config["availability_topic"] as? String == "fairfuel/\(vehicle)/status")
                try rig.waitUntil("the sim reaches the scenario's end", seconds: 40) { !sim.isRunning }
                try rig.waitUntil("a finished trip's last position", seconds: 10) {
                    everything.log.contains("homeassistant/device_tracker/\(vehicle)/position/attributes {\"latitude\":48.")
                }
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
            }
        }
    }
}
