import FairFuelStore
import Foundation
import Testing
import TestSupport

extension IntegrationTests {
    /// `fairfuel fleet-sim --no-publish`: the cars made on several threads, each car's days in one
    /// transaction, queue the same messages as cars made one after another (the store's own
    /// payloads; only each store's random vehicle ids differ).
    @Suite struct FleetSimTests {
        @Test(.timeLimit(.minutes(2)))
        func carsMadeAtOnceQueueTheSameMessagesAsCarsMadeOneByOne() throws {
            let root = NSTemporaryDirectory() + "fairfuel-fleet-sim-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            func make(jobs: Int) throws -> [[String]] {
                let directory = root + "/jobs-\(jobs)"
                let sim = try FairFuelExecutable.run(
                    ["fleet-sim", "--cars", "3", "--days", "5", "--url", "mqtt://127.0.0.1:1", "--dir", directory, "--no-publish", "--jobs", "\(jobs)"])
                #expect(sim.exitCode == 0, "\(sim.standardError)")
                return try (0..<3).map { car in
                    let store = try TripStore(path: "\(directory)/car-\(car).db", readOnly: true)
                    let uplinkID = try store.vehicleUplinkID()
                    return try store.pendingOutboxMessages(limit: 10_000).map { message in
                        let text = message.topic + " " + String(decoding: message.payload, as: UTF8.self)
                        return text.replacingOccurrences(of: uplinkID, with: "VEHICLE")
                            .replacingOccurrences(of: #""vehicle_uid":"[0-9a-f-]+""#, with: #""vehicle_uid":"UID""#, options: .regularExpression)
                    }
                }
            }
            let oneByOne = try make(jobs: 1)
            let atOnce = try make(jobs: 3)
            #expect(oneByOne.allSatisfy { $0.count > 10 }, "trips, refuels and splits queued: \(oneByOne.map(\.count))")
            #expect(oneByOne == atOnce)
            #expect(oneByOne[0] != oneByOne[1], "each car drives its own days")
        }
    }
}
