import FairFuelCore
import FairFuelDomain
import FairFuelEdges
@testable import FairFuelPull
import FairFuelStore
import Foundation
import Testing

/// A late hub asks each car it holds a secret for, once a run and at a bounded rate, for what it
/// missed since the highest message id it holds of that car; the request is a command the car's
/// own check takes.
@Suite struct HubResendRequestsTests {
    static let vehicle = HubCollectorTests.vehicle
    static let secretHex = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"

    static func secrets(_ files: [String: String]) throws -> String {
        let directory = HubDatabaseTests.temporary() + "-secrets"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        return directory
    }

    @Test func theHighestMessageIDAndTheRecordsPerKindAreWhatTheHubHolds() throws {
        let root = HubDatabaseTests.temporary()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try HubCollector(directory: root + "/files", prefix: "fairfuel")
        let database = try HubRecordStore(path: root + "-hub.db")
        defer { try? FileManager.default.removeItem(atPath: root + "-hub.db") }
        let db = try HubCollector(directory: root + "/db", prefix: "fairfuel", database: database)
        #expect(try files.highestMessageID(vehicle: Self.vehicle) == 0 && db.highestMessageID(vehicle: Self.vehicle) == 0)
        for (kind, payload) in HubDatabaseTests.messages {
            for collector in [files, db] { try collector.receive(topic: "fairfuel/\(Self.vehicle)/\(kind)", payload: payload) }
        }
        try files.flush()
        let directoryHub = try HubCollector(directory: root + "/files", prefix: "fairfuel")  // read back from its files
        #expect(try directoryHub.highestMessageID(vehicle: Self.vehicle) == 6)
        #expect(try db.highestMessageID(vehicle: Self.vehicle) == 6)
        #expect(try db.highestMessageID(vehicle: "another") == 0)
        let summaries = try database.kindSummaries()
        #expect(summaries.map { "\($0.kind) \($0.live) \($0.deleted) \($0.highestMessageID ?? -1)" } == ["split 1 0 6", "trip 2 1 5"])
        #expect(summaries.allSatisfy { $0.vehicle == Self.vehicle && $0.lastStoredUTCMs != nil })
        #expect(HubCollector.vehicle(topic: "fairfuel/\(Self.vehicle)/status", prefix: "fairfuel") == Self.vehicle)
        #expect(HubCollector.vehicle(topic: "fairfuel/\(Self.vehicle)/command/result", prefix: "fairfuel") == nil)
        #expect(HubCollector.vehicle(topic: "other/\(Self.vehicle)/trip", prefix: "fairfuel") == nil)
    }

    @Test func eachCarWithASecretIsAskedOnceARunAtABoundedRate() throws {
        let directory = try Self.secrets([
            "car-b.secret": Self.secretHex, "car-a.secret": Self.secretHex + "\n", "broken.secret": "not a secret", "README": "x",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let requests = try HubResendRequests(secretsDirectory: directory)
        #expect(try requests.vehiclesWithSecrets() == ["broken", "car-a", "car-b"])
        var asked: [String] = []
        func since(_ vehicle: String) -> () throws(PullClientError) -> Int64 {
            { () throws(PullClientError) -> Int64 in
                asked.append(vehicle)
                return vehicle == "car-a" ? 41 : 0
            }
        }
        #expect(try requests.ask("car-a", since: since("car-a")))
        #expect(try !requests.ask("car-a", since: since("car-a")), "once a run")
        #expect(try !requests.ask("car-c", since: since("car-c")), "no secret for it")
        #expect(try !requests.ask("broken", since: since("broken")))
        #expect(try !requests.ask("../car-a", since: since("../car-a")), "not a plain vehicle id")
        #expect(try requests.ask("car-b", since: since("car-b")))
        // A secret added while the hub runs: the car is asked at its next message.
        try Self.secretHex.write(toFile: directory + "/car-c.secret", atomically: true, encoding: .utf8)
        #expect(try requests.ask("car-c", since: since("car-c")))
        #expect(asked == ["car-a", "car-b", "car-c"], "what the hub holds is read only for a car it asks")
        let problems = requests.takeProblems()
        #expect(problems.count == 1 && problems[0].contains("broken.secret: a pairing secret is 32 hex digits"), "\(problems)")
        #expect(requests.takeProblems().isEmpty)

        // Ten a second at most.
        #expect(requests.waiting == 3)
        let first = try #require(requests.next(nowMs: 1_000))
        #expect(first.vehicle == "car-a" && first.sinceMessageID == 41)
        #expect(requests.next(nowMs: 1_000 + HubResendRequests.spacingMs - 1) == nil)
        #expect(requests.next(nowMs: 1_000 + HubResendRequests.spacingMs)?.vehicle == "car-b")
        #expect(requests.next(nowMs: 10_000)?.vehicle == "car-c")
        #expect(requests.next(nowMs: 20_000) == nil && requests.waiting == 0)

        // The request is a resend the car's check takes: the MAC under the car's secret, the payload read back.
        try HMACSHA256.load()
        let (command, envelope) = HubResendRequests.command(for: first, issuedUTCMs: 1_795_627_200_000)
        let json = try #require(JSONValue(String(decoding: envelope, as: UTF8.self)))
        let id = try #require(json["id"]?.string), payload = try #require(json["payload"]?.string)
        let key = try #require(PairingSecret(parsing: Self.secretHex)).bytes
        #expect(json["hmac"]?.string == Hex.string(HMACSHA256.mac(key: key, message: FleetCommand.signedMessage(id: id, payload: payload))))
        #expect(FleetCommand.parse(id: id, payload: payload) == .success(command))
        #expect(command.operation == .resend(sinceMessageID: 41) && FleetCommand.isValidID(id))
    }

    @Test func theCarsAskedInARunAreBounded() throws {
        let directory = try Self.secrets(["a.secret": Self.secretHex, "b.secret": Self.secretHex, "c.secret": Self.secretHex])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let requests = try HubResendRequests(secretsDirectory: directory, maximumCars: 2)
        #expect(try requests.vehiclesWithSecrets() == ["a", "b"])
        // Made-up vehicle ids without a secret are not remembered: they take no place.
        for index in 0..<1_000 { _ = try requests.ask("made-up-\(index)") { () throws(PullClientError) -> Int64 in 0 } }
        for vehicle in ["a", "b", "c"] { _ = try requests.ask(vehicle) { () throws(PullClientError) -> Int64 in 0 } }
        #expect(requests.waiting == 2, "the third car is past the bound")
    }

    @Test func theHubsDirectorySaysWhetherItAsks() throws {
        let directory = HubDatabaseTests.temporary()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try HubResendRequests.state(directory: directory) == nil)
        try HubResendRequests.recordState(directory: directory, secretsDirectory: nil)
        #expect(try HubResendRequests.state(directory: directory) == "")
        try HubResendRequests.recordState(directory: directory, secretsDirectory: "/etc/fairfuel/secrets")
        #expect(try HubResendRequests.state(directory: directory) == "/etc/fairfuel/secrets")
        #expect(throws: PullClientError.self) { try HubResendRequests(secretsDirectory: directory + "/missing") }
    }
}
