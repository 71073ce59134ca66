import FairFuelCore
import FairFuelEdges
import FairFuelPull
@testable import FairFuelService
import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Synchronization
import Testing
import TestSupport

/// `fairfuel web --hub-db FILE --mqtt-url URL --secrets DIR`: a family user's correction goes down
/// to its car through a real Mosquitto as a signed command, is applied by the car's own receiver
/// and store, and shows as pending in the hub's database until the collecting hub (the real
/// `fairfuel hub --db`) records the car's answer; a driver, a wrong form, an unknown car, a car
/// without a secret and a broker that is down send nothing and record nothing.
@Suite(.serialized, .tags(.integration), .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"))
struct HubCorrectionsWebTests {
    static let secretHex = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"

    /// A car: its store (WebRig's, with the web users), paired, and the `FleetCommandReceiver` the
    /// service runs, on a real MQTT connection of its own, answering on `…/command/result`.
    final class Car: @unchecked Sendable {
        let store: String
        let vehicle: String
        private let stop = Atomic<Bool>(false)
        private let finished = DispatchSemaphore(value: 0)

        init(port: Int) throws {
            store = try WebRig.store()
            let car = try TripStore(path: store)
            try car.setPairingSecret(hex: HubCorrectionsWebTests.secretHex, createdUTCMs: nil)
            vehicle = try car.vehicleUplinkID()
            let (store, vehicle) = (store, vehicle)
            Thread { [self] in
                defer { finished.signal() }
                guard let trips = try? TripStore(path: store) else { return }
                let receiver = FleetCommandReceiver(topicPrefix: "fairfuel", vehicleID: vehicle, store: trips, logger: .disabled)
                let configuration = MQTTClientConfiguration(
                    host: "127.0.0.1", port: port, clientID: "car-\(vehicle.prefix(8))", keepAliveSeconds: 30, backoffMinimumMs: 200,
                    backoffMaximumMs: 1_000, connectTimeoutMs: 5_000, tls: nil, cleanSession: false)
                guard let client = try? MQTTClient(configuration: configuration) else { return }
                client.setHandlers(MQTTClient.Handlers(
                    connected: { try? client.subscribe(receiver.commandTopic) },
                    received: { _, payload, _ in
                        let (result, _) = receiver.receive(payload, utcMs: WallClock.utcMilliseconds())
                        _ = try? client.publish(topic: receiver.resultTopic, payload: result, retained: false)
                    }))
                let clock = MonotonicClock()
                client.start(nowMs: clock.now.value)
                while !stop.load(ordering: .relaxed) {
                    let ready = client.waitForReadiness(timeoutMs: 100)
                    client.service(readable: ready.readable, writable: ready.writable, nowMs: clock.now.value)
                }
                client.stop()
            }.start()
        }

        func shutDown() {
            stop.store(true, ordering: .relaxed)
            finished.wait()
        }

        func refuelCount() throws -> Int { try TripStore(path: store).refuels().count }
    }

    /// The hub's database with one trip of `vehicle` and one of a car the hub has no secret for, and the secrets directory.
    static func hub(vehicle: String, directory: String) throws -> (database: String, secrets: String) {
        let database = directory + "/hub.db"
        let hub = try HubRecordStore(path: database)
        for (car, name) in [(vehicle, "Golf"), (HubFamilyWebTests.zoe, "Zoe")] {
            let trip = HubFamilyWebTests.trip(car, name: name, id: 1, driver: "Alice", start: "2026-11-25T07:41:03.000Z", km: 12.6, liters: 0.9)
            _ = try hub.offer(vehicle: car, kind: "trip", id: 1, revision: 0, deleted: false, messageID: 1, payload: trip, storedUTCMs: 1_795_000_000_000)
        }
        // A bill of the car: the hub reads a correction's cost in its currency.
        let bill = HubFamilyWebTests.split(vehicle, name: "Golf", id: 1, at: "2026-11-24T17:20:00.000Z", shares: [("Alice", 30.0, 5_000)])
        _ = try hub.offer(vehicle: vehicle, kind: "split", id: 1, revision: 0, deleted: false, messageID: 101, payload: bill, storedUTCMs: 1_795_000_000_000)
        let secrets = directory + "/secrets"
        try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true)
        // As `fairfuel provision pairing-secret --generate` shows it: groups of four with dashes.
        let shown = try #require(PairingSecret(parsing: secretHex)).display
        try (shown + "\n").write(toFile: "\(secrets)/\(vehicle).secret", atomically: true, encoding: .utf8)
        return (database, secrets)
    }

    static func corrections(port: Int, secrets: String) throws -> HubCorrections {
        try HubCorrections(
            broker: HubBroker(url: "mqtt://127.0.0.1:\(port)", host: "127.0.0.1", port: port, tls: false, prefix: "fairfuel"), secretsDirectory: secrets)
    }

    static func commands(_ database: String) throws -> [HubCommandEntry] { try HubRecordStore(path: database).commands(vehicle: nil) }

    @Test(.timeLimit(.minutes(2)))
    func aFamilyUsersCorrectionReachesTheCarAndShowsAppliedOnceTheHubRecordsTheAnswer() async throws {
        let harness = try MosquittoHarness()
        defer { harness.shutDown() }
        let car = try Car(port: harness.port)
        defer { car.shutDown() }
        let directory = (car.store as NSString).deletingLastPathComponent
        let (database, secrets) = try Self.hub(vehicle: car.vehicle, directory: directory)
        let url = "mqtt://127.0.0.1:\(harness.port)"
        // The collecting hub's persistent session exists before the car answers (as a hub that runs all along).
        let first = try WebRig.cli(["hub", "--url", url, "--db", database, "--dir", directory + "/hub", "--until-idle", "1"])
        #expect(first.exitCode == 0, "\(first.standardError)")
        for _ in 0..<100 where !harness.brokerLog.contains("fairfuel/\(car.vehicle)/command") { try await Task.sleep(for: .milliseconds(100)) }
        let refuelsBefore = try car.refuelCount()
        let hub = try HubFamily(path: database, corrections: try Self.corrections(port: harness.port, secrets: secrets))

        try await WebRig.serve(car.store, hub: hub) { client in
            #expect(try await client.logIn("mum", WebRig.familyPassword).status == .ok)
            let page = try await client.send(.get, "/family")
            #expect(page.text.contains("Send a correction") && page.text.contains("action=\"/family/cars/\(car.vehicle)/commands\""))
            let form = "csrf=\(client.csrfToken)&command_id=web-reload-1&action=refuel+add&at=2026-11-26T17%3A30Z&liters=31.5&cost=54.32&full=1&station=Home"
            let sent = try await client.send(.post, "/family/cars/\(car.vehicle)/commands", form: form)
            #expect(sent.status == .ok && sent.text.contains("pending until the car answers"), "\(sent.text)")
            let pending = try await client.send(.get, "/api/v1/family/cars/\(car.vehicle)/commands")
            let listed = try #require((pending.object["commands"] as? [[String: Any]])?.first)
            #expect(listed["state"] as? String == "pending" && listed["command"] as? String == "refuel_add", "\(pending.text)")

            // The car applies it through its own store.
            for _ in 0..<100 where try car.refuelCount() == refuelsBefore { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try car.refuelCount() == refuelsBefore + 1)
            let refuel = try #require(try TripStore(path: car.store).refuels().last?.refuel)
            #expect(refuel.liters == 31.5 && refuel.cost.value == 5_432 && refuel.station == "Home")

            // The same form again (a reload): the same command id, answered already_applied, nothing added.
            #expect(try await client.send(.post, "/family/cars/\(car.vehicle)/commands", form: form).status == .ok)

            // The collecting hub takes the answers into the database; the page then says applied.
            let collected = try WebRig.cli(["hub", "--url", url, "--db", database, "--dir", directory + "/hub", "--until-idle", "2"])
            #expect(collected.exitCode == 0, "\(collected.standardError)")
            let answered = try await client.send(.get, "/api/v1/family/cars/\(car.vehicle)/commands")
            let state = (answered.object["commands"] as? [[String: Any]])?.first?["state"] as? String
            #expect(state == "applied", "\(answered.text)")
            #expect(try car.refuelCount() == refuelsBefore + 1, "the reload was not applied again")
            let after = try await client.send(.get, "/family")
            #expect(after.text.contains("refuel_add") && after.text.contains(">applied</span>") && !after.text.contains("pending (until"), "\(after.text)")
        }
        let status = try WebRig.cli(["hub", "status", "--db", database, "--dir", directory + "/hub"])
        #expect(status.standardOutput.contains("commands: 1\n") && status.standardOutput.contains("refuel_add: applied"), "\(status.standardOutput)")
    }

    @Test(.timeLimit(.minutes(2)))
    func driversWrongFormsUnknownCarsCarsWithoutASecretAndABrokerDownSendAndRecordNothing() async throws {
        let harness = try MosquittoHarness()
        defer { harness.shutDown() }
        let store = try WebRig.store()
        let vehicle = try TripStore(path: store).vehicleUplinkID()
        let directory = (store as NSString).deletingLastPathComponent
        let (database, secrets) = try Self.hub(vehicle: vehicle, directory: directory)
        let listener = try harness.subscribe(topic: "fairfuel/+/command", count: 1, seconds: 20)
        let hub = try HubFamily(path: database, corrections: try Self.corrections(port: harness.port, secrets: secrets))
        let refuel = #"{"action":"refuel add","liters":31.5,"cost":"54.32"}"#

        try await WebRig.serve(store, hub: hub) { client in
            #expect(try await client.logIn("cara", WebRig.driverPassword).status == .ok)
            let driver = try await client.send(.post, "/api/v1/family/cars/\(vehicle)/commands", json: refuel)
            #expect(driver.status == .forbidden && driver.text.contains("only a family user"), "\(driver.text)")
            #expect(!(try await client.send(.get, "/family")).text.contains("Send a correction"))

            #expect(try await client.logIn("mum", WebRig.familyPassword).status == .ok)
            let wrong = try await client.send(.post, "/api/v1/family/cars/\(vehicle)/commands", json: #"{"action":"refuel add","liters":31.5}"#)
            #expect(wrong.status == .badRequest && wrong.text.contains("--cost is needed"), "\(wrong.text)")
            // The cost is read in the car's currency (EUR, from its bill at the hub): another one is refused before anything is sent.
            let yen = try await client.send(
                .post, "/api/v1/family/cars/\(vehicle)/commands", json: #"{"action":"refuel add","liters":31.5,"cost":"5432","currency":"JPY"}"#)
            #expect(yen.status == .badRequest && yen.text.contains("--currency JPY is not the car's: its bills at the hub are in EUR"), "\(yen.text)")
            let page = try await client.send(
                .post, "/family/cars/\(vehicle)/commands", form: "csrf=\(client.csrfToken)&action=refuel+add&liters=lots&cost=54.32")
            #expect(page.status == .badRequest && page.text.contains("--liters lots is not a number"), "\(page.text)")
            let noAction = try await client.send(.post, "/family/cars/\(vehicle)/commands", form: "csrf=\(client.csrfToken)&liters=3")
            #expect(noAction.status == .badRequest && noAction.text.contains("action: say one of"), "\(noAction.text)")
            let unknown = try await client.send(.post, "/api/v1/family/cars/nosuchcar/commands", json: refuel)
            #expect(unknown.status == .notFound && unknown.text.contains("the hub has no car nosuchcar"), "\(unknown.text)")
            let noSecret = try await client.send(.post, "/api/v1/family/cars/\(HubFamilyWebTests.zoe)/commands", json: refuel)
            #expect(noSecret.status == .unprocessableContent && noSecret.text.contains("no pairing secret for car \(HubFamilyWebTests.zoe)"), "\(noSecret.text)")
            let noToken = try await client.send(.post, "/family/cars/\(vehicle)/commands", form: "action=settle&refuel=1")
            #expect(noToken.status == .forbidden)
        }
        // Nothing reached the broker, nothing is listed.
        #expect(harness.lines(of: listener, seconds: 2).isEmpty)
        #expect(try Self.commands(database).isEmpty)

        // The broker is down: the command is not listed as sent, and the page says so.
        harness.stop()
        let down = try HubFamily(path: database, corrections: try Self.corrections(port: harness.port, secrets: secrets))
        try await WebRig.serve(store, hub: down) { client in
            #expect(try await client.logIn("mum", WebRig.familyPassword).status == .ok)
            let reply = try await client.send(.post, "/api/v1/family/cars/\(vehicle)/commands", json: #"{"action":"settle","refuel":"1"}"#)
            #expect(reply.status == .serviceUnavailable && reply.text.contains("was not sent"), "\(reply.text)")
        }
        // The CLI's sender is the same: not sent, not listed.
        let cli = try WebRig.cli(
            ["hub", "command", "--url", "mqtt://127.0.0.1:\(harness.port)", "--vehicle", vehicle, "--secret-file", "\(secrets)/\(vehicle).secret",
             "--db", database, "--timeout", "20", "settle", "1"])
        #expect(cli.exitCode != 0 && cli.standardError.contains("was not sent: could not connect"), "\(cli.standardError)")
        #expect(try Self.commands(database).isEmpty)
    }

    /// Without a broker and secrets the hub's app stays read-only and says why.
    @Test func withoutABrokerTheFamilyViewStaysReadOnlyAndSaysWhy() async throws {
        let (hubPath, users) = try HubFamilyWebTests.rig()
        // The options go together, and a secrets directory that is not there stops the app before it listens.
        let alone = try WebRig.cli(["web", "--hub-db", hubPath, "--db", users, "--mqtt-url", "mqtt://127.0.0.1:1883"])
        #expect(alone.exitCode != 0 && alone.standardError.contains("--mqtt-url and --secrets go together"), "\(alone.standardError)")
        let missing = try WebRig.cli(["web", "--hub-db", hubPath, "--db", users, "--mqtt-url", "mqtt://127.0.0.1:1883", "--secrets", hubPath + ".nowhere"])
        #expect(missing.exitCode != 0 && missing.standardError.contains("no such directory"), "\(missing.standardError)")
        try await WebRig.serve(users, hub: try HubFamily(path: hubPath)) { client in
            #expect(try await client.logIn("mum", WebRig.familyPassword).status == .ok)
            let page = try await client.send(.get, "/family")
            #expect(page.text.contains("--mqtt-url and --secrets") && !page.text.contains("Send a correction"))
            let refused = try await client.send(.post, "/api/v1/family/cars/\(HubFamilyWebTests.golf)/commands", json: #"{"action":"settle","refuel":"7"}"#)
            #expect(refused.status == .unprocessableContent && refused.text.contains("read-only"), "\(refused.text)")
        }
    }
}
