import FairFuelEdges
import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `mosquitto_pub`, which publishes the hub's commands in these tests.
private let publisherPath = ["/usr/bin/mosquitto_pub", "/usr/local/bin/mosquitto_pub"].first { FileManager.default.isExecutableFile(atPath: $0) }

extension IntegrationTests {
    /// Commands down to a car through a real Mosquitto and the real service (docs/mqtt.md,
    /// "Commands"): one published while the service is stopped is applied once when it is back,
    /// a duplicate is answered `already_applied` and changes nothing, a wrong HMAC is refused.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent && publisherPath != nil, "\(MosquittoHarness.missingMessage)"))
    struct FleetCommandServiceTests {
        static let secretHex = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"

        /// The envelope as docs/mqtt.md describes it, built here independently of the hub's code.
        static func envelope(id: String, payload: String, secretHex: String) throws -> String {
            try HMACSHA256.load()
            let digits = Array(secretHex.utf8)
            let key = stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
            let mac = HMACSHA256.mac(key: key, message: Array("fairfuel-command-v1\n\(id)\n\(payload)".utf8))
            let envelope = ["id": id, "payload": payload, "hmac": mac.map { String(format: "%02x", $0) }.joined()]
            return String(decoding: try JSONSerialization.data(withJSONObject: envelope), as: UTF8.self)
        }

        static func publish(_ harness: MosquittoHarness, topic: String, _ message: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(publisherPath))
            process.arguments = ["-h", "127.0.0.1", "-p", "\(harness.port)", "-q", "1", "-t", topic, "-m", message]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }

        /// The rig's car paired, its uplink on `harness`, and its secret in a file.
        static func pairedCarOnBroker(_ rig: IntegrationRig, _ harness: MosquittoHarness) throws -> (vehicle: String, board: String, secretFile: String) {
            let vehicle = try pairedCar(rig)
            let board = try UplinkServiceTests.writeBoard(rig, port: harness.port)
            let secretFile = rig.directory + "/secret"
            try secretHex.write(toFile: secretFile, atomically: true, encoding: .utf8)
            return (vehicle, board, secretFile)
        }

        /// `fairfuel hub command` to `vehicle`, signed with the secret in `secret`.
        static func send(
            _ harness: MosquittoHarness, vehicle: String, _ words: [String], secret: String, id: String, timeout: String = "20"
        ) throws -> CommandResult {
            try FairFuelExecutable.run(
                ["hub", "command", "--url", "mqtt://127.0.0.1:\(harness.port)", "--vehicle", vehicle, "--secret-file", secret,
                 "--timeout", timeout, "--id", id] + words)
        }

        static func refuelCount(_ rig: IntegrationRig) throws -> Int { try rig.openStore().refuels().count }

        /// Gives the rig's car the pairing secret and returns its vehicle id.
        static func pairedCar(_ rig: IntegrationRig) throws -> String {
            try TripStore(path: rig.databasePath).setPairingSecret(hex: secretHex, createdUTCMs: nil)
            return try rig.openStore().vehicleUplinkID()
        }

        @Test(.timeLimit(.minutes(2)))
        func aCommandSentWhileTheCarIsAwayIsAppliedOnceAndAForgedOneNever() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try Self.pairedCar(rig)
                let topic = "fairfuel/\(vehicle)/command"
                let board = try UplinkServiceTests.writeBoard(rig, port: harness.port)
                let results = try harness.subscribe(topic: topic + "/result", count: 3, seconds: 60)

                // First run: the car subscribes in a persistent session, then stops.
                var run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the uplink connects", seconds: 20) { UplinkServiceTests.uplink(rig)?["state"] as? String == "connected" }
                try rig.waitUntil("the car subscribes to its commands", seconds: 10) { harness.brokerLog.contains(topic) }
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))

                // While it is away: a refuel entered at home, and one signed with another secret.
                // Issued now: a command older than the car remembers ids for is refused.
                let now = ISO8601DateFormatter().string(from: Date())
                let payload = #"{"v":1,"command":"refuel_add","issued_utc":"\#(now)","at_utc":"2026-03-02T17:30:00Z","liters":31.5,"cost_cents":5432,"currency":"EUR","station":"Home \"typed\""}"#
                let good = try Self.envelope(id: "hub-cmd-1", payload: payload, secretHex: Self.secretHex)
                let forged = try Self.envelope(
                    id: "hub-cmd-2", payload: payload.replacing("5432", with: "1"), secretHex: "ffffffffffffffffffffffffffffffff")
                #expect(try Self.refuelCount(rig) == 0)
                try Self.publish(harness, topic: topic, good)
                try Self.publish(harness, topic: topic, forged)

                run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the queued command is applied", seconds: 20) { try Self.refuelCount(rig) == 1 }
                let refuel = try #require(try rig.openStore().refuels().first?.refuel)
                #expect(refuel.cost.value == 5_432 && refuel.liters == 31.5 && refuel.station == "Home \"typed\"")

                // The same command again: answered already_applied, nothing changes.
                try Self.publish(harness, topic: topic, good)
                let lines = harness.lines(of: results, seconds: 20)
                #expect(lines.count == 3, "\(lines)")
                let answers = lines.compactMap { line -> [String: Any]? in
                    guard let space = line.firstIndex(of: " ") else { return nil }
                    return try? JSONSerialization.jsonObject(with: Data(line[line.index(after: space)...].utf8)) as? [String: Any]
                }
                #expect(answers.map { "\($0["id"] ?? "-") \($0["outcome"] ?? "-")" }
                    == ["hub-cmd-1 applied", "hub-cmd-2 refused", "hub-cmd-1 already_applied"], "\(lines)")
                #expect((answers[safe: 1]?["reason"] as? String)?.contains("HMAC") == true)
                #expect(try Self.refuelCount(rig) == 1)
                let counts = UplinkServiceTests.uplink(rig)?["commands"] as? [String: Int]
                #expect(counts == ["applied": 1, "refused": 1, "already_applied": 1], "\(String(describing: counts))")
                // The forged one was logged once, as refused.
                #expect(run.standardError.split(separator: "\n").filter { $0.contains("hub-cmd-2 refused") }.count == 1, "\(run.standardError)")
                // The refuel went up as any refuel does.
                try rig.waitUntil("the outbox is empty", seconds: 20) { UplinkServiceTests.uplink(rig)?["pending"] as? Int == 0 }
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
            }
        }

        /// `fairfuel hub command` end to end: pending while the car is away, applied once it answers,
        /// refused when signed with another secret; `fairfuel hub status` lists what the hub refused.
        @Test(.timeLimit(.minutes(2)))
        func theHubSendsACommandAndShowsItsResult() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let (vehicle, board, secretFile) = try Self.pairedCarOnBroker(rig, harness)
                let wrongFile = rig.directory + "/wrong-secret"
                try "ffffffffffffffffffffffffffffffff".write(toFile: wrongFile, atomically: true, encoding: .utf8)
                func send(_ words: [String], secret: String, id: String, timeout: String = "20") throws -> CommandResult {
                    try Self.send(harness, vehicle: vehicle, words, secret: secret, id: id, timeout: timeout)
                }
                // Without the hub's records of the car, the cost's currency is said.
                let refuel = ["refuel", "add", "--at", "2026-03-02T17:30:00Z", "--liters", "31.5", "--cost", "54.32", "--currency", "EUR", "--station", "Aral"]

                // The car has never connected: no session at the broker yet, so the command waits in vain.
                let away = try send(refuel, secret: secretFile, id: "away-1", timeout: "1")
                #expect(away.exitCode == 1 && away.standardError.contains("command away-1 (refuel_add) is pending"), "\(away.standardError)")

                let run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the uplink connects", seconds: 20) { UplinkServiceTests.uplink(rig)?["state"] as? String == "connected" }
                try rig.waitUntil("the car subscribes to its commands", seconds: 10) { harness.brokerLog.contains("fairfuel/\(vehicle)/command") }
                let applied = try send(refuel, secret: secretFile, id: "hub-1")
                #expect(applied.exitCode == 0, "\(applied.standardError)")
                #expect(applied.standardOutput.contains("command hub-1 (refuel_add): applied: refuel 1 added"), "\(applied.standardOutput)")
                let again = try send(refuel, secret: secretFile, id: "hub-1")
                #expect(again.standardOutput.contains("command hub-1 (refuel_add): already_applied"), "\(again.standardOutput)")
                let forged = try send(["settle", "1"], secret: wrongFile, id: "hub-2")
                #expect(forged.exitCode == 1 && forged.standardError.contains("refused: the command's HMAC does not match"), "\(forged.standardError)")
                let invalid = try send(["trip", "assign", "1", "Nobody"], secret: secretFile, id: "hub-3")
                #expect(invalid.exitCode == 1 && invalid.standardError.contains("no driver named 'Nobody'"), "\(invalid.standardError)")
                let typo = try send(["refuel", "add", "--liters", "31.5"], secret: secretFile, id: "hub-4")
                #expect(typo.exitCode != 0 && typo.standardError.contains("--at is needed"), "\(typo.standardError)")
                // A cost in another currency than the car's book never moves money: the car refuses it.
                let yen = try send(["refuel", "add", "--at", "2026-03-02T18:30:00Z", "--liters", "20", "--cost", "5432", "--currency", "JPY"], secret: secretFile, id: "hub-5")
                #expect(yen.exitCode == 1 && yen.standardError.contains("the command's cost is in JPY, this car's book in EUR"), "\(yen.standardError)")
                let unsaid = try send(["refuel", "add", "--at", "2026-03-02T18:30:00Z", "--liters", "20", "--cost", "54.32"], secret: secretFile, id: "hub-6")
                #expect(unsaid.exitCode != 0 && unsaid.standardError.contains("say its currency"), "\(unsaid.standardError)")
                #expect(try Self.refuelCount(rig) == 1)
                #expect(try rig.openStore().refuels().first?.refuel.settledUTCMs == nil)
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
            }
        }

        /// `trip move` and `baseline mark` from the hub through the broker and the running service:
        /// applied by the store's rules (the trip's driver changes, the mark is a refuel without a
        /// bill), refused as the CLI refuses them, and gone up to the broker as any correction.
        @Test(.timeLimit(.minutes(2)))
        func aTripMovedAndABaselineMarkedFromTheHubAreAppliedByTheStoresRules() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let (vehicle, board, secretFile) = try Self.pairedCarOnBroker(rig, harness)
                _ = try HubLateResendTests.run(["provision", "driver", "add", "Eve", "--db", rig.databasePath], board: board)
                let trip = try #require(try HubLateResendTests.recordTrips(rig, board: board, count: 1).first)
                let uplinked = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 10_000, seconds: 60)

                let run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the car subscribes to its commands", seconds: 20) { harness.brokerLog.contains("fairfuel/\(vehicle)/command") }
                let moved = try Self.send(harness, vehicle: vehicle, ["trip", "move", "\(trip)", "eve"], secret: secretFile, id: "move-1")
                #expect(moved.exitCode == 0 && moved.standardOutput.contains("command move-1 (trip_move): applied: trip \(trip) moved from Dana to Eve"),
                        "\(moved.standardOutput) \(moved.standardError)")
                #expect(try rig.openStore().sessions().first { $0.id.rawValue == trip }?.driverName == "Eve")
                let untracked = try Self.send(harness, vehicle: vehicle, ["trip", "move", "u1", "Eve"], secret: secretFile, id: "move-2")
                #expect(untracked.exitCode != 0 && untracked.standardError.contains("one recorded trip"), "\(untracked.standardError)")
                let nobody = try Self.send(harness, vehicle: vehicle, ["trip", "move", "\(trip)", "Nobody"], secret: secretFile, id: "move-3")
                #expect(nobody.exitCode == 1 && nobody.standardError.contains("refused: no driver named 'Nobody'"), "\(nobody.standardError)")

                let mark = ["baseline", "mark", "--at", "2026-03-01T08:00:00Z"]
                let marked = try Self.send(harness, vehicle: vehicle, mark, secret: secretFile, id: "mark-1")
                #expect(marked.exitCode == 0 && marked.standardOutput.contains("(baseline_mark): applied: refuel 1: baseline mark"), "\(marked.standardOutput)")
                let refuel = try #require(try rig.openStore().refuels().first?.refuel)
                #expect(refuel.baseline && refuel.atUTCMs == 1_772_352_000_000)  // 2026-03-01T08:00Z
                let second = try Self.send(harness, vehicle: vehicle, mark, secret: secretFile, id: "mark-2")
                #expect(second.exitCode == 1 && second.standardError.contains("a baseline mark is recorded already"), "\(second.standardError)")
                #expect(try rig.openStore().refuels().count == 1)

                // Both went up as corrections do: the trip with its new driver, the mark as a refuel.
                try rig.waitUntil("the outbox is empty", seconds: 20) { UplinkServiceTests.uplink(rig)?["pending"] as? Int == 0 }
                try rig.waitUntil("the corrections reach the broker", seconds: 20) {
                    uplinked.log.contains("fairfuel/\(vehicle)/trip {") && uplinked.log.contains("\"driver\":\"Eve\"")
                        && uplinked.log.contains("fairfuel/\(vehicle)/refuel {")
                }
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
            }
        }

        /// A command sent to a car that is away stays pending in `hub status`; the collecting hub
        /// takes the car's answer when it comes back, and the command shows as applied.
        @Test(.timeLimit(.minutes(2)))
        func aPendingCommandIsShownUntilTheCarAnswersTheCollectingHub() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try Self.pairedCar(rig)
                let board = try UplinkServiceTests.writeBoard(rig, port: harness.port)
                let hubDirectory = rig.directory + "/hub"
                let secretFile = rig.directory + "/secret"
                try Self.secretHex.write(toFile: secretFile, atomically: true, encoding: .utf8)
                let url = "mqtt://127.0.0.1:\(harness.port)"
                // The car connects once (its session), and the hub once (its own), then both are away.
                var run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the car subscribes to its commands", seconds: 20) { harness.brokerLog.contains("fairfuel/\(vehicle)/command") }
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
                _ = try FairFuelExecutable.run(["hub", "--url", url, "--dir", hubDirectory, "--until-idle", "1"])

                let sent = try FairFuelExecutable.run(
                    ["hub", "command", "--url", url, "--vehicle", vehicle, "--secret-file", secretFile, "--timeout", "1", "--id", "later-1",
                     "--dir", hubDirectory, "settle", "1"])
                #expect(sent.exitCode == 1 && sent.standardError.contains("is pending"), "\(sent.standardError)")
                let before = try FairFuelExecutable.run(["hub", "status", "--dir", hubDirectory])
                #expect(before.standardOutput.contains("commands: 1 (1 pending)") && before.standardOutput.contains("later-1 settle: pending"), "\(before.standardOutput)")

                // The car is back: it answers (refused: it has no refuel 1), and the collecting hub keeps the answer.
                run = try rig.startRun(extra: ["--board", board])
                let collected = try FairFuelExecutable.run(["hub", "--url", url, "--dir", hubDirectory, "--until-idle", "3"])
                #expect(collected.exitCode == 0, "\(collected.standardError)")
                let after = try FairFuelExecutable.run(["hub", "status", "--dir", hubDirectory])
                #expect(after.standardOutput.contains("commands: 1\n") && after.standardOutput.contains("later-1 settle: refused: no refuel with id 1"),
                        "\(after.standardOutput)")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
            }
        }

        /// A hub refuses a trip of 999,999,999,999 m and a split that does not add up, keeps the
        /// good trip, and `fairfuel hub status` says what it refused and why.
        @Test(.timeLimit(.minutes(1)))
        func hubStatusListsWhatTheHubRefused() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let directory = harness.directory + "/hub"
            let vehicle = "0123456789abcdef0123456789abcdef"
            func collect() throws -> CommandResult {
                try FairFuelExecutable.run(["hub", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", directory, "--until-idle", "1"])
            }
            _ = try collect()  // the hub's persistent session: what is published next waits for it
            let trip = #"{"v":1,"message_id":1,"vehicle":"\#(vehicle)","vehicle_name":"Golf","id":1,"revision":0,"driver":"Anna","start_utc":"2026-11-25T07:41:03.000Z","end_utc":"2026-11-25T08:06:10.000Z","end_reason":"departed","distance_m":21406.3,"fuel_ml":1482.3,"duration_ms":1507212}"#
            try Self.publish(harness, topic: "fairfuel/\(vehicle)/trip", trip)
            try Self.publish(harness, topic: "fairfuel/\(vehicle)/trip", trip.replacing("\"id\":1,", with: "\"id\":2,").replacing("\"message_id\":1", with: "\"message_id\":2").replacing("21406.3", with: "999999999999"))
            try Self.publish(harness, topic: "fairfuel/\(vehicle)/split", #"{"v":1,"message_id":3,"vehicle":"\#(vehicle)","id":12,"revision":0,"at_utc":"2026-11-25T17:20:00.000Z","liters":41.2,"cost_cents":7396,"full":true,"currency":"EUR","shares":[{"driver":"Anna","fuel_l":41.2,"cost_cents":100}]}"#)
            let collected = try collect()
            #expect(collected.standardOutput.contains("1 record message(s) kept, 0 duplicate or older, 2 refused"), "\(collected.standardOutput) \(collected.standardError)")
            let status = try FairFuelExecutable.run(["hub", "status", "--dir", directory])
            #expect(status.exitCode == 0)
            // The hub's default database (DIR/hub.db) holds the car and the refusals.
            #expect(status.standardOutput.contains("cars: 1 in \(directory)/hub.db\n  \(vehicle): 1 trip(s)"), "\(status.standardOutput)")
            #expect(status.standardOutput.contains("\(vehicle)/trip message 2: distance_m 999999999999 is outside 0...10000000"), "\(status.standardOutput)")
            #expect(status.standardOutput.contains("\(vehicle)/split message 3: the shares add up to 100, not the bill's cost_cents 7396"), "\(status.standardOutput)")
            let family = try FairFuelExecutable.run(["family", directory, "--json"])
            #expect(family.exitCode == 0 && family.standardOutput.contains("Anna"), "\(family.standardError)")
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
