import FairFuelEdges
import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `fairfuel hub` against a real Mosquitto: two cars' uplinks (Anna drives both) collected into the
/// hub's default database (DIR/hub.db) give the same `fairfuel family DIR` as USB pulls of both cars; a resend changes nothing,
/// a correction replaces, and a hub restarted finds what was published while it was away.
@Suite(.serialized, .tags(.integration), .enabled(if: MosquittoHarness.toolsPresent && FileManager.default.fileExists(atPath: "/usr/bin/socat"),
                             "\(MosquittoHarness.missingMessage), or socat is missing"))
struct HubTests {
    static let annaTag = "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8"
    static let annaBeacon = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0"

    struct Car {
        let db: String
        let board: String
        var vehicle: String
    }

    static func run(_ arguments: [String], board: String? = nil) throws -> CommandResult {
        let result = try FairFuelExecutable.run(arguments, environment: board.map { ["FAIRFUEL_BOARD": $0] } ?? [:])
        #expect(result.exitCode == 0, "\(arguments.joined(separator: " ")): \(result.standardError)")
        return result
    }

    /// A car whose store queues uplink messages: Anna (same tag in both cars) drives the 20 s sample twice, then a refuel.
    static func car(_ directory: String, name: String, port: Int, other: String) throws -> Car {
        let db = directory + "/\(name).db"
        let board = directory + "/\(name).toml"
        try "[uplink]\nurl = \"mqtt://127.0.0.1:\(port)\"\n".write(toFile: board, atomically: true, encoding: .utf8)
        _ = try run(["vehicle", "set", "--name", name, "--db", db], board: board)
        _ = try run(["provision", "driver", "add", "Anna", "--tag", annaTag, "--beacon", annaBeacon, "--db", db], board: board)
        _ = try run(["provision", "driver", "add", other, "--db", db], board: board)
        for _ in 0..<3 { _ = try run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again", "--db", db], board: board) }
        _ = try run(["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "40", "--cost", "72.50", "--db", db], board: board)
        return Car(db: db, board: board, vehicle: try TripStore(path: db).vehicleUplinkID())
    }

    /// Publishes what the car's outbox holds, as the service does, until it is empty.
    static func publish(_ car: Car, port: Int) throws {
        let store = try TripStore(path: car.db)
        let pending = try store.outboxStatistics().pendingMessages
        let publisher = try OutboxPublisher(store: store, configuration: MQTTClientConfiguration(
            host: "127.0.0.1", port: port, clientID: "car-\(car.vehicle.prefix(8))", keepAliveSeconds: 5,
            backoffMinimumMs: 50, backoffMaximumMs: 400, connectTimeoutMs: 3_000))
        publisher.client.start(nowMs: OutboxPublisher.nowMs())
        #expect(publisher.run(seconds: 10) { publisher.acknowledged >= pending && publisher.inFlight.isEmpty })
        #expect(try store.outboxStatistics().pendingMessages == 0)
        publisher.client.stop()
    }

    /// Publishes `payload` once on `topic` with QoS 1 (a resend, as a car killed before its PUBACK makes one).
    static func publishRaw(_ topic: String, _ payload: String, port: Int) throws {
        let client = try MQTTClient(configuration: MQTTClientConfiguration(
            host: "127.0.0.1", port: port, clientID: "resender", keepAliveSeconds: 5, backoffMinimumMs: 50, backoffMaximumMs: 400))
        var acknowledged = false
        client.setHandlers(MQTTClient.Handlers(
            connected: { _ = try? client.publish(topic: topic, payload: Array(payload.utf8), retained: false) },
            acknowledged: { _, _ in acknowledged = true }))
        client.start(nowMs: OutboxPublisher.nowMs())
        let deadline = OutboxPublisher.nowMs() + 5_000
        while !acknowledged, OutboxPublisher.nowMs() < deadline {
            let ready = client.waitForReadiness(timeoutMs: client.descriptor == nil ? 20 : 50)
            client.service(readable: ready.readable, writable: ready.writable, nowMs: OutboxPublisher.nowMs())
        }
        #expect(acknowledged)
        client.stop()
    }

    static func hub(_ directory: String, port: Int) throws -> CommandResult {
        try run(["hub", "--url", "mqtt://127.0.0.1:\(port)", "--dir", directory, "--until-idle", "2"])
    }

    /// The car pulled over USB (usb-serve and pull over a socat pseudo-terminal pair), as `USBPullTests` does.
    static func pull(_ car: Car, into out: String, scratch: String) throws {
        let secret = try run(["provision", "pairing-secret", "--generate", "--db", car.db]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let dongle = scratch + "/ttyGS0", laptop = scratch + "/ttyACM0"
        let socat = try ChildProcess(
            name: "socat", executable: "/usr/bin/socat", arguments: ["-d", "-d", "pty,raw,echo=0,link=\(dongle)", "pty,raw,echo=0,link=\(laptop)"],
            outputPath: scratch + "/socat.out", errorPath: scratch + "/socat.err")
        defer { socat.killGroup() }
        for _ in 0..<100 where !(FileManager.default.fileExists(atPath: dongle) && FileManager.default.fileExists(atPath: laptop)) {
            usleep(20_000)
        }
        let server = try ChildProcess(
            name: "usb-serve", executable: FairFuelExecutable.path, arguments: ["usb-serve", "--port", dongle, "--db", car.db],
            outputPath: scratch + "/serve.out", errorPath: scratch + "/serve.err")
        defer { server.killGroup() }
        _ = try run(["pull", "--port", laptop, "--out", out, "--secret", secret])
    }

    /// The database `fairfuel hub --dir DIR` keeps by default (docs/mqtt.md).
    static func database(_ directory: String) -> String { directory + "/hub.db" }

    /// What the hub of `directory` keeps of the car in its database, one line per record:
    /// kind, id, revision, deleted (0/1), the message as received.
    static func hubRecords(_ directory: String, _ car: Car) -> String {
        guard let records = try? HubRecordStore(path: HubTests.database(directory)).records(vehicle: car.vehicle) else { return "" }
        return records.map { "\($0.kind)\t\($0.id)\t\($0.revision)\t\($0.deleted ? 1 : 0)\t\($0.payload)\n" }.joined()
    }

    @Test(.timeLimit(.minutes(1)))
    func twoCarsIntoOneHubGiveTheFamilyOfTheirUSBPulls() throws {
        let scratch = try HubScratch()
        defer { scratch.close() }
        let (harness, directory, hubDirectory) = (scratch.harness, scratch.directory, scratch.hubDirectory)

        // The hub's first run makes its persistent session; nothing has been published yet.
        let first = try Self.hub(hubDirectory, port: harness.port)
        #expect(first.standardOutput.contains("0 record message(s) kept"), "\(first.standardOutput)")

        let golf = try Self.car(directory, name: "Golf", port: harness.port, other: "Ben")
        let zoe = try Self.car(directory, name: "Zoe", port: harness.port, other: "Cleo")
        // Zoe's second trip was Cleo's: a correction (revision 1) of a trip the hub already has.
        try Self.publish(golf, port: harness.port)
        try Self.publish(zoe, port: harness.port)

        // Published while the hub was away: its persistent session holds them.
        let second = try Self.hub(hubDirectory, port: harness.port)
        #expect(second.standardOutput.contains("0 duplicate or older"), "\(second.standardOutput)")
        let trips = try Self.run(["trips", "--json", "--db", zoe.db]).standardOutput
        let zoeTrips = (try JSONSerialization.jsonObject(with: Data(trips.utf8)) as! [[String: Any]]).filter { !($0["end_reason"] is NSNull) }
        #expect(zoeTrips.count == 2)
        let corrected = zoeTrips.last!["id"] as! Int
        _ = try Self.run(["trips", "assign", "\(corrected)", "Cleo", "--db", zoe.db], board: zoe.board)
        try Self.publish(zoe, port: harness.port)
        let third = try Self.hub(hubDirectory, port: harness.port)
        #expect(!third.standardOutput.contains(" 0 record message(s) kept"), "the correction and its re-split are kept: \(third.standardOutput)")
        #expect(Self.hubRecords(hubDirectory, zoe).contains("trip\t\(corrected)\t1\t0\t"), "revision 1 replaced revision 0")

        // A resend of a message the hub has (same revision), and an older revision arriving late: nothing changes.
        let before = (Self.hubRecords(hubDirectory, golf), Self.hubRecords(hubDirectory, zoe))
        let golfTrip = try #require(before.0.split(separator: "\n").first { $0.hasPrefix("trip\t") })
        let payload = String(golfTrip.split(separator: "\t", omittingEmptySubsequences: false)[4])
        try Self.publishRaw("fairfuel/\(golf.vehicle)/trip", payload, port: harness.port)
        let stale = try #require(before.1.split(separator: "\n").first { $0.hasPrefix("trip\t\(corrected)\t") })
        let oldRevision = String(stale.split(separator: "\t", omittingEmptySubsequences: false)[4])
            .replacingOccurrences(of: "\"revision\":1", with: "\"revision\":0").replacingOccurrences(of: "\"Cleo\"", with: "\"Anna\"")
        try Self.publishRaw("fairfuel/\(zoe.vehicle)/trip", oldRevision, port: harness.port)
        let fourth = try Self.hub(hubDirectory, port: harness.port)
        #expect(fourth.standardOutput.contains("0 record message(s) kept, 2 duplicate or older"), "\(fourth.standardOutput)")
        #expect(Self.hubRecords(hubDirectory, golf) == before.0)
        #expect(Self.hubRecords(hubDirectory, zoe) == before.1)

        // USB pulls of both cars, in the hub's order (by vehicle id).
        let cars = [golf, zoe].sorted { $0.vehicle < $1.vehicle }
        var pulls: [String] = []
        for (index, car) in cars.enumerated() {
            let scratch = directory + "/link\(index)"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            try Self.pull(car, into: directory + "/pull\(index)", scratch: scratch)
            pulls.append(directory + "/pull\(index)")
        }
        for format in [[], ["--json"]] {
            let fromPulls = try Self.run(["family"] + pulls + format).standardOutput
            let fromHub = try Self.run(["family", hubDirectory] + format).standardOutput
            #expect(fromHub == fromPulls, "hub:\n\(fromHub)\npulls:\n\(fromPulls)")
        }
        let family = try Self.run(["family", hubDirectory, "--json"]).standardOutput
        let drivers = try JSONSerialization.jsonObject(with: Data(family.utf8)) as! [[String: Any]]
        let anna = try #require(drivers.first { $0["driver"] as? String == "Anna" })
        #expect((anna["cars"] as? [String])?.count == 2, "Anna drives both cars and is one person: \(family)")
        #expect(drivers.contains { $0["driver"] as? String == "Cleo" }, "\(family)")

        // No car directories any more: the hub keeps its records in its database only.
        #expect(cars.allSatisfy { !FileManager.default.fileExists(atPath: "\(hubDirectory)/\($0.vehicle)") })
        // One car through the hub and over USB is one car: the hub keeps the store's id the pull carries,
        // and the car given both ways is refused (1, as `family`'s other refusals), never counted twice.
        for car in cars {
            let uid = try #require(try TripStore(path: car.db).vehicleUID())
            let records = try HubRecordStore(path: Self.database(hubDirectory)).records(vehicle: car.vehicle)
            #expect(!records.isEmpty && records.allSatisfy { $0.payload.contains("\"vehicle_uid\":\"\(uid)\"") }, "\(records.map(\.payload))")
        }
        for arguments in [[pulls[0], hubDirectory], [hubDirectory, pulls[1]]] {
            let twice = try FairFuelExecutable.run(["family"] + arguments)
            #expect(twice.exitCode == 1, "\(twice.standardOutput)")
            #expect(twice.standardError.contains("hold the same car") && twice.standardError.contains("a hub's copy of it"), "\(twice.standardError)")
            #expect(twice.standardOutput.isEmpty)
            let split = try FairFuelExecutable.run(["split"] + arguments + ["--by", "driver"])
            #expect(split.exitCode == 1 && split.standardError.contains("hold the same car"), "\(split.standardOutput)\(split.standardError)")
        }
    }
}

/// A Mosquitto broker on loopback and a scratch directory for the cars' stores and the hub's
/// directory (`hubDirectory`); `close()` stops the one and removes the other.
struct HubScratch {
    let harness: MosquittoHarness
    let directory: String
    var hubDirectory: String { directory + "/hub" }

    init(prefix: String = "fairfuel-hub") throws {
        harness = try MosquittoHarness()
        directory = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8))"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            harness.shutDown()
            throw error
        }
    }

    func close() {
        harness.shutDown()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
