import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// The service's MQTT uplink against a real Mosquitto on loopback (docs/mqtt.md): the store
    /// as outbox, published from the poll loop, nothing lost to a broker outage, a SIGKILL or a
    /// wrong password; a consumer drops duplicates by `message_id`.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"))
    struct UplinkServiceTests {
        /// A board profile with only `[uplink]` (every other key: the Pi Zero 2 W's; the tests pass the paths).
        static func writeBoard(_ rig: IntegrationRig, port: Int, extra: String = "") throws -> String {
            let path = rig.directory + "/uplink-board.toml"
            try """
                [uplink]
                url = "mqtt://127.0.0.1:\(port)"
                keepalive_s = 5
                backoff_min_ms = 100
                backoff_max_ms = 400
                \(extra)
                """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        static func uplink(_ rig: IntegrationRig) -> [String: Any]? { rig.status()?.json["uplink"] as? [String: Any] }

        /// `topic payload` lines of a `mosquitto_sub -v` log, record messages only, as JSON.
        static func records(_ log: String, vehicle: String) -> [(kind: String, json: [String: Any], text: String)] {
            log.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].hasPrefix("fairfuel/\(vehicle)/"), !parts[0].hasSuffix("/status"),
                      let json = try? JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any]
                else { return nil }
                return (String(parts[0].split(separator: "/").last!), json, String(parts[1]))
            }
        }

        static func addRefuels(_ rig: IntegrationRig, board: String, count: Int) throws {
            for index in 0..<count {
                let result = try FairFuelExecutable.run(
                    ["refuel", "add", "--db", rig.databasePath, "--at", "2026-03-02T\(10 + index):00:00Z", "--liters", "\(20 + index)",
                     "--cost", "\(40 + index).50", "--control", rig.controlPath],
                    environment: ["FAIRFUEL_BOARD": board])
                guard result.exitCode == 0 else { throw IntegrationRig.Failure(description: "refuel add: \(result.standardError)") }
            }
        }

        @Test(.timeLimit(.minutes(3)))
        func aDriveThroughABrokerOutageAndASIGKILLMidPublishArrivesWholeInOrder() throws {
            let harness = try MosquittoHarness(persistent: true)
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                let board = try Self.writeBoard(rig, port: harness.port, extra: "publish_per_s = 4\n")
                let hub = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 10_000, seconds: 170, sessionID: "hub")
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                var run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the uplink connects", seconds: 20) { Self.uplink(rig)?["state"] as? String == "connected" }
                try rig.waitUntil("online is retained on the status topic", seconds: 10) {
                    hub.log.contains("fairfuel/\(vehicle)/status online")
                }
                // The broker goes away for the drive; the service records it as always.
                harness.stop()
                try rig.waitUntil("the sim reaches the scenario's end", seconds: IntegrationTests.patience) { !sim.isRunning }
                #expect(rig.status()?.sessionState == "IDLE")
                try Self.addRefuels(rig, board: board, count: 5)
                let waiting = try #require(Self.uplink(rig))
                #expect(waiting["state"] as? String != "connected")
                let pending = try #require(waiting["pending"] as? Int)
                #expect(pending >= 2 + 5 * 2, "two trips, five refuels and their splits wait: \(waiting)")
                #expect(waiting["sent"] as? Int == 0)

                // The broker returns; at 4 messages a second, the service is SIGKILLed mid-publish:
                // the broker is paused so that messages leave without their PUBACK coming back.
                try harness.start()
                try rig.waitUntil("some messages are acknowledged", seconds: 30) { (Self.uplink(rig)?["sent"] as? Int ?? 0) >= 3 }
                let brokerPID = try #require(harness.broker?.programIdentifier)
                kill(brokerPID, SIGSTOP)
                try rig.waitUntil("two messages are published without their PUBACK", seconds: 10) {
                    (Self.uplink(rig)?["inflight"] as? Int ?? 0) >= 2
                }
                run.send(SIGKILL)
                _ = run.wait(seconds: 5)
                kill(brokerPID, SIGCONT)
                try rig.waitUntil("the last will says offline", seconds: 20) {
                    hub.log.contains("fairfuel/\(vehicle)/status offline")
                }
                let store = try rig.openStore()
                let afterKill = try store.outboxStatistics()
                #expect(afterKill.pendingMessages > 0, "the kill came before the outbox was empty: \(afterKill)")

                // Restarted: what is still pending goes out, from the oldest.
                run = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the outbox is empty", seconds: 60) { Self.uplink(rig)?["pending"] as? Int == 0 }
                let final = try #require(Self.uplink(rig))
                #expect(final["dropped"] as? Int == 0)
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))

                let total = pending
                var received: [(kind: String, json: [String: Any], text: String)] = []
                try rig.waitUntil("the hub has every message", seconds: 20) {
                    received = Self.records(hub.log, vehicle: vehicle)
                    return Set(received.compactMap { $0.json["message_id"] as? Int }).count >= total
                }
                // In order after dropping duplicates; a duplicate is the same message, byte for byte.
                var first: [Int: String] = [:]
                var order: [Int] = []
                for message in received {
                    let id = try #require(message.json["message_id"] as? Int)
                    if let seen = first[id] {
                        #expect(seen == message.text, "a duplicate differs from its first copy")
                    } else {
                        first[id] = message.text
                        order.append(id)
                    }
                }
                print("uplink drive: \(total) messages, \(received.count - order.count) duplicate(s) after the SIGKILL, \(afterKill.pendingMessages) pending at the kill")
                #expect(order == order.sorted(), "in outbox order: \(order)")
                #expect(received.count > order.count, "the messages in flight at the SIGKILL came twice, with the same message_id")
                #expect(order.count == total)
                // Every trip arrived, with its `trips --json` id.
                let tripIDs = received.filter { $0.kind == "trip" }.compactMap { $0.json["id"] as? Int }
                var seenTrips = Set<Int>()
                let trips = try rig.trips().map(\.id)
                #expect(tripIDs.filter { seenTrips.insert($0).inserted } == trips, "every trip, in order: \(tripIDs) vs \(trips)")
                #expect(trips.count == 2)
                #expect(received.filter { $0.kind == "refuel" }.count >= 5)
                #expect(!received.contains { $0.json["start"] != nil || $0.json["track"] != nil }, "positions none")
                #expect(hub.log.hasSuffix("fairfuel/\(vehicle)/status offline\n"), "a clean stop says offline itself")
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func aWrongPasswordIsOneClearLineAndLosesNothing() throws {
            let harness = try MosquittoHarness(users: [("car", "right-password")])
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                let board = try Self.writeBoard(rig, port: harness.port, extra: "credentials = \"mqtt\"\n")
                let credentials = rig.directory + "/credentials"
                try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
                try "car\nwrong-password\n".write(toFile: credentials + "/mqtt", atomically: true, encoding: .utf8)
                chmod(credentials + "/mqtt", 0o400)
                func start() throws -> ChildProcess {
                    let run = try rig.spawn(
                        "run",
                        ["CREDENTIALS_DIRECTORY=\(credentials)", FairFuelExecutable.path, "run", "--port", rig.linkPath, "--db",
                         rig.databasePath, "--control", rig.controlPath, "--board", board],
                        executable: "/usr/bin/env")
                    try rig.waitUntil("the service answers", seconds: 30) { rig.status() != nil }
                    return run
                }
                var run = try start()
                try Self.addRefuels(rig, board: board, count: 1)
                try rig.waitUntil("a few refused attempts", seconds: 10) {
                    run.standardError.contains("not authorised") && (Self.uplink(rig)?["state"] as? String) == "waiting"
                }
                usleep(1_000_000)
                let refused = try #require(Self.uplink(rig))
                #expect((refused["error"] as? String)?.contains("not authorised") == true, "\(refused)")
                #expect(refused["sent"] as? Int == 0)
                #expect((refused["pending"] as? Int ?? 0) >= 2, "the refuel and its split wait: \(refused)")
                let lines = run.standardError.split(separator: "\n").filter { $0.contains("not authorised") }
                #expect(lines.count == 1, "one line, not one per attempt: \(lines)")
                #expect(!run.standardError.contains("wrong-password"), "the password is never logged")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))

                // The right password: what waited goes out.
                chmod(credentials + "/mqtt", 0o600)
                try "car\nright-password\n".write(toFile: credentials + "/mqtt", atomically: false, encoding: .utf8)
                let hub = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 3, seconds: 20)
                run = try start()
                try rig.waitUntil("the outbox is empty", seconds: 20) { Self.uplink(rig)?["pending"] as? Int == 0 }
                let lines2 = harness.lines(of: hub, seconds: 10)
                #expect(lines2.contains { $0.hasPrefix("fairfuel/\(vehicle)/refuel ") }, "\(lines2)")
                #expect(lines2.contains { $0.hasPrefix("fairfuel/\(vehicle)/split ") }, "\(lines2)")
                run.send(SIGTERM)
                _ = run.wait(seconds: 5)
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func anUnreadableCertificateIsOneClearLineAndTheOutboxKeepsFilling() throws {
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let board = rig.directory + "/uplink-board.toml"
                let missing = rig.directory + "/no-such-ca.crt"
                try "[uplink]\nurl = \"mqtts://127.0.0.1:8883\"\nca_file = \"\(missing)\"\n".write(toFile: board, atomically: true, encoding: .utf8)
                let run = try rig.startRun(extra: ["--board", board])
                try Self.addRefuels(rig, board: board, count: 1)
                let uplink = try #require(Self.uplink(rig))
                #expect(uplink["state"] as? String == "off")
                #expect((uplink["error"] as? String)?.contains("cannot read the CA certificate \(missing)") == true, "\(uplink)")
                #expect((uplink["pending"] as? Int ?? 0) >= 2, "the refuel and its split wait for a working uplink: \(uplink)")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
                let lines = run.standardError.split(separator: "\n").filter { $0.contains("uplink") }
                #expect(lines.count == 1, "\(lines)")
                #expect(lines.first?.contains("cannot read the CA certificate") == true)
            }
        }
    }
}
