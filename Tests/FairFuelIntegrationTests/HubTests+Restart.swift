import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension HubTests {
    /// `fairfuel hub` without `--until-idle` runs until SIGTERM: stopped so, it exits 0 at once with every
    /// message it received in its directory, and a hub started again on the directory carries on with
    /// the same session, receiving what came after and nothing twice.
    @Test(.timeLimit(.minutes(1)))
    func sigtermKeepsEveryReceivedMessageAndTheRestartedHubCarriesOn() throws {
        let scratch = try HubScratch()
        defer { scratch.close() }
        let (harness, directory, hubDirectory) = (scratch.harness, scratch.directory, scratch.hubDirectory)
        let golf = try Self.car(directory, name: "Golf", port: harness.port, other: "Ben")
        let first = try Self.pendingRecords(golf)

        let hub = try Self.startHub(hubDirectory, harness: harness, scratch: directory, run: 1)
        defer { hub.process.killGroup() }
        try Self.publish(golf, port: harness.port)
        try Self.waitUntil("the hub keeps the first batch", hub.process) { Self.keptRecords(hubDirectory, golf) == first.latest }
        try Self.stop(hub.process)
        #expect(hub.process.standardOutput.contains("hub: \(first.messages) record message(s) kept, 0 duplicate or older"),
                "\(hub.process.standardOutput)")
        Self.expectIntactState(hubDirectory, clientID: hub.clientID, vehicles: [golf.vehicle])
        #expect(Self.keptRecords(hubDirectory, golf) == first.latest, "the stop changed what the hub had written")

        // More from the car: a new trip, and a correction (revision 1) of a trip the hub already keeps.
        _ = try Self.run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again", "--db", golf.db], board: golf.board)
        let trips = try Self.run(["trips", "--json", "--db", golf.db]).standardOutput
        let ended = (try JSONSerialization.jsonObject(with: Data(trips.utf8)) as! [[String: Any]]).filter { !($0["end_reason"] is NSNull) }
        let corrected = try #require(ended.first?["id"] as? Int)
        _ = try Self.run(["trips", "assign", "\(corrected)", "Ben", "--db", golf.db], board: golf.board)
        let second = try Self.pendingRecords(golf)
        #expect(second.latest["trip:\(corrected)"]?.revision == 1, "the correction is queued: \(second.latest.keys.sorted())")
        let everything = first.latest.merging(second.latest) { $1 }
        #expect(everything.count > first.latest.count, "the new trip is a new record")

        let restarted = try Self.startHub(hubDirectory, harness: harness, scratch: directory, run: 2)
        defer { restarted.process.killGroup() }
        #expect(restarted.clientID == hub.clientID, "the restarted hub must resume the same session")
        try Self.publish(golf, port: harness.port)
        try Self.waitUntil("the hub keeps both batches", restarted.process) { Self.keptRecords(hubDirectory, golf) == everything }
        try Self.stop(restarted.process)
        // The first batch was acknowledged before the stop: the broker does not deliver it again.
        #expect(restarted.process.standardOutput.contains("hub: \(second.messages) record message(s) kept, 0 duplicate or older"),
                "\(restarted.process.standardOutput)")
        Self.expectIntactState(hubDirectory, clientID: hub.clientID, vehicles: [golf.vehicle])
        print("hub restart: \(first.messages) then \(second.messages) record messages, \(everything.count) records kept; "
            + "\(hub.process.standardOutput.split(separator: "\n").last ?? "") / \(restarted.process.standardOutput.split(separator: "\n").last ?? "")")
        #expect(Self.keptRecords(hubDirectory, golf) == everything)
        #expect(Self.hubRecords(hubDirectory, golf).contains("trip\t\(corrected)\t1\t0\t"), "revision 1 replaced revision 0")
        let family = try Self.run(["family", hubDirectory, "--json"]).standardOutput
        #expect(family.contains("\"Ben\""), "the corrected trip is Ben's: \(family)")

        // A SIGTERM right after the broker acknowledged the car: what the hub had received is written,
        // what it had not waits in its session, and the next run collects it; nothing is lost or kept twice.
        _ = try Self.run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again", "--db", golf.db], board: golf.board)
        _ = try Self.run(["trips", "assign", "\(corrected)", "Anna", "--db", golf.db], board: golf.board)
        let third = try Self.pendingRecords(golf)
        let all = everything.merging(third.latest) { $1 }
        let interrupted = try Self.startHub(hubDirectory, harness: harness, scratch: directory, run: 3)
        defer { interrupted.process.killGroup() }
        try Self.publish(golf, port: harness.port)
        try Self.stop(interrupted.process)
        let written = try #require(Self.keptRecords(hubDirectory, golf), "a record listed twice")
        #expect(written.allSatisfy { all[$0.key] != nil }, "\(written.keys.sorted())")
        let rest = try Self.hub(hubDirectory, port: harness.port)
        #expect(Self.keptRecords(hubDirectory, golf) == all)
        Self.expectIntactState(hubDirectory, clientID: hub.clientID, vehicles: [golf.vehicle])
        let keptBefore = try #require(Self.keptCount(interrupted.process.standardOutput), "\(interrupted.process.standardOutput)")
        let keptAfter = try #require(Self.keptCount(rest.standardOutput), "\(rest.standardOutput)")
        print("hub stopped mid-delivery: \(keptBefore) kept before the SIGTERM, \(keptAfter) after the restart, of \(third.messages)")
        #expect(keptBefore + keptAfter == third.messages, "\(interrupted.process.standardOutput) / \(rest.standardOutput)")
    }

    /// N of the hub's last line, `hub: N record message(s) kept, ...`.
    static func keptCount(_ output: String) -> Int? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("hub: ") && $0.contains(" record message(s) kept") }) else { return nil }
        return Int(line.dropFirst("hub: ".count).prefix { $0.isNumber })
    }

    /// One record's latest revision and payload, as a hub keeps it.
    struct KeptRecord: Equatable {
        var revision: Int64
        var payload: String
    }

    /// The record messages waiting in the car's outbox, and the latest of each record (`kind:id`).
    static func pendingRecords(_ car: Car) throws -> (messages: Int, latest: [String: KeptRecord]) {
        let messages = try TripStore(path: car.db).pendingOutboxMessages(limit: 10_000).filter { $0.kind == .record }
        var latest: [String: KeptRecord] = [:]
        for message in messages {
            let payload = String(decoding: message.payload, as: UTF8.self)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
            let id = try #require(json["id"] as? Int64 ?? (json["id"] as? Int).map(Int64.init), "\(payload)")
            let revision = try #require(json["revision"] as? Int64 ?? (json["revision"] as? Int).map(Int64.init), "\(payload)")
            let key = "\(message.topic.split(separator: "/").last!):\(id)"
            if revision > latest[key]?.revision ?? -1 { latest[key] = KeptRecord(revision: revision, payload: payload) }
        }
        return (messages.count, latest)
    }

    /// What the hub's database holds for the car, by `kind:id`; a record listed twice makes this nil.
    static func keptRecords(_ directory: String, _ car: Car) -> [String: KeptRecord]? {
        var kept: [String: KeptRecord] = [:]
        for line in hubRecords(directory, car).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 5, let revision = Int64(fields[2]), fields[3] == "0" else { return nil }
            let key = "\(fields[0]):\(fields[1])"
            guard kept[key] == nil else { return nil }
            kept[key] = KeptRecord(revision: revision, payload: String(fields[4]))
        }
        return kept
    }

    /// `fairfuel hub` (no --until-idle) on `directory`, once the broker has acknowledged its four subscriptions.
    static func startHub(_ directory: String, harness: MosquittoHarness, scratch: String, run: Int) throws -> (process: ChildProcess, clientID: String) {
        let process = try ChildProcess(
            name: "hub", executable: FairFuelExecutable.path, arguments: ["hub", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", directory],
            outputPath: scratch + "/hub-\(run).out", errorPath: scratch + "/hub-\(run).err")
        var clientID = ""
        try waitUntil("the hub subscribes", process) {
            guard let marker = try? String(contentsOfFile: directory + "/.fairfuel-hub", encoding: .utf8) else { return false }
            clientID = marker.trimmingCharacters(in: .newlines)
            // Every run sends its own four SUBSCRIBEs, also when the broker kept its session.
            return harness.brokerLog.components(separatedBy: "Sending SUBACK to \(clientID)").count - 1 >= 4 * run
        }
        return (process, clientID)
    }

    /// SIGTERM: the hub must exit 0 within 2 s.
    static func stop(_ hub: ChildProcess) throws {
        let (ending, seconds) = hub.stop(with: SIGTERM)
        print("hub: exit after \(Int(seconds * 1000)) ms of SIGTERM")
        #expect(ending == .exited(0), "hub ended with \(ending.map(\.description) ?? "nothing") after SIGTERM: \(hub.standardError)")
        #expect(seconds < 2.0, "SIGTERM took \(seconds) s")
    }

    /// The hub's own state: the marker with the session's client id, the cars in its database, and
    /// no file left half-written (every file is replaced through a `.partial` and a rename).
    static func expectIntactState(_ directory: String, clientID: String, vehicles: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect((try? String(contentsOfFile: directory + "/.fairfuel-hub", encoding: .utf8)) == clientID + "\n", sourceLocation: sourceLocation)
        #expect((try? HubRecordStore(path: HubTests.database(directory)).vehicles()) == vehicles.sorted(),
                sourceLocation: sourceLocation)
        let files = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        #expect(!files.isEmpty && !files.contains { $0.hasSuffix(".partial") }, "\(files)", sourceLocation: sourceLocation)
    }

    static func waitUntil(_ what: String, _ hub: ChildProcess, seconds: Double = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard hub.isRunning else { throw HarnessError("the hub ended (\(hub.poll()!)) before \(what): \(hub.standardError)") }
            guard Date() < deadline else { throw HarnessError("timed out after \(seconds) s waiting until \(what): \(hub.standardError)") }
            usleep(20_000)
        }
    }
}
