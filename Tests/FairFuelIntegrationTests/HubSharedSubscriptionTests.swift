import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// Two hub instances on one shared subscription (`--share`) and one database: each record
    /// message goes to one of them, and every record is stored exactly once.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"))
    struct HubSharedSubscriptionTests {
        /// Two `fairfuel hub` instances of the group `hubs` on `database`, once both have subscribed.
        static func startHubs(_ harness: MosquittoHarness, database: String, untilIdleSeconds: Int) throws -> [ChildProcess] {
            let hubs = try (1...2).map { index in
                try ChildProcess(
                    name: "hub\(index)", executable: FairFuelExecutable.path,
                    arguments: ["hub", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", harness.directory + "/hub\(index)", "--db", database,
                                "--share", "hubs", "--until-idle", "\(untilIdleSeconds)"],
                    outputPath: harness.directory + "/hub\(index).out", errorPath: harness.directory + "/hub\(index).err")
            }
            let deadline = Date().addingTimeInterval(10)
            while harness.brokerLog.components(separatedBy: "Sending SUBACK to fairfuel-hub-").count < 3 {
                guard Date() < deadline else {
                    for hub in hubs { hub.killGroup() }
                    throw HarnessError("the hubs did not subscribe: \(harness.logs)")
                }
                usleep(10_000)
            }
            return hubs
        }

        @Test(.timeLimit(.minutes(2)))
        func twoHubsOnASharedSubscriptionStoreEveryRecordOnce() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let database = harness.directory + "/hub.db"
            let hubs = try Self.startHubs(harness, database: database, untilIdleSeconds: 4)
            defer { for hub in hubs { hub.killGroup() } }
            let cars = ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"]
            let perCar = 500
            for car in cars {
                let publisher = Process()
                publisher.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
                publisher.arguments = ["-h", "127.0.0.1", "-p", "\(harness.port)", "-q", "1", "-t", "fairfuel/\(car)/trip", "-l"]
                let input = Pipe()
                publisher.standardInput = input
                try publisher.run()
                let lines = (1...perCar).map { HubDatabaseBurstTests.trip(vehicle: car, id: $0) }.joined(separator: "\n") + "\n"
                input.fileHandleForWriting.write(Data(lines.utf8))
                try input.fileHandleForWriting.close()
                publisher.waitUntilExit()
            }
            for hub in hubs { #expect(hub.wait(seconds: 30) == .exited(0), "\(hub.standardError)") }
            let store = try HubRecordStore(path: database)
            #expect(try store.recordCount() == cars.count * perCar)
            for car in cars { #expect(try store.records(vehicle: car).map(\.id) == (1...Int64(perCar)).map { $0 }) }
            // Each instance took a part; together exactly what was sent (a duplicate would be counted stale).
            let kept = hubs.map { hub -> Int in
                let out = (try? String(contentsOfFile: harness.directory + "/\(hub.name).out", encoding: .utf8)) ?? ""
                return Int(out.split(separator: " ").dropFirst().first ?? "") ?? -1
            }
            #expect(kept.allSatisfy { $0 > 0 } && kept.reduce(0, +) == cars.count * perCar, "\(kept) \(hubs.map(\.standardError))")
        }

        /// What either instance of a group refused is in the database they share: `hub status`, given
        /// either instance's directory, lists every refusal of both.
        @Test(.timeLimit(.minutes(2)))
        func hubStatusShowsWhatBothInstancesRefused() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let database = harness.directory + "/hub.db"
            let hubs = try Self.startHubs(harness, database: database, untilIdleSeconds: 3)
            defer { for hub in hubs { hub.killGroup() } }
            let car = "0123456789abcdef0123456789abcdef"
            let refusedCount = 40
            let publisher = Process()
            publisher.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
            publisher.arguments = ["-h", "127.0.0.1", "-p", "\(harness.port)", "-q", "1", "-t", "fairfuel/\(car)/trip", "-l"]
            let input = Pipe()
            publisher.standardInput = input
            try publisher.run()
            // A trip of 999,999,999,999 m each: refused, whichever instance receives it.
            let lines = (1...refusedCount).map { HubDatabaseBurstTests.trip(vehicle: car, id: $0).replacing("21406.3", with: "999999999999") }
            input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            try input.fileHandleForWriting.close()
            publisher.waitUntilExit()
            for hub in hubs { #expect(hub.wait(seconds: 30) == .exited(0), "\(hub.standardError)") }
            let refusedByEach = hubs.map { hub -> Int in
                let out = (try? String(contentsOfFile: harness.directory + "/\(hub.name).out", encoding: .utf8)) ?? ""
                let words = out.split(separator: " ")
                return words.firstIndex(of: "refused,").flatMap { Int(words[$0 - 1]) } ?? -1
            }
            #expect(refusedByEach.allSatisfy { $0 > 0 } && refusedByEach.reduce(0, +) == refusedCount, "\(refusedByEach) \(hubs.map(\.standardError))")
            for index in 1...2 {
                let directory = harness.directory + "/hub\(index)"
                let status = try FairFuelExecutable.run(["hub", "status", "--dir", directory, "--db", database])
                #expect(status.exitCode == 0 && status.standardOutput.contains("refused messages: \(refusedCount)\n"), "\(status.standardOutput)")
                #expect(status.standardOutput.contains("\(car)/trip message \(refusedCount): distance_m 999999999999"), "\(status.standardOutput)")
                #expect(!FileManager.default.fileExists(atPath: directory + "/.fairfuel-hub-refused.tsv"), "the refusals are the database's")
            }
        }

        /// `fairfuel fleet-sim` into two hub instances: every record the simulated cars' own stores
        /// hold is in the hub's database once, under its car.
        @Test(.timeLimit(.minutes(3)))
        func fleetSimIntoTwoHubsStoresEveryCarsRecordsOnce() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let database = harness.directory + "/hub.db"
            let hubs = try Self.startHubs(harness, database: database, untilIdleSeconds: 5)
            defer { for hub in hubs { hub.killGroup() } }
            let cars = harness.directory + "/cars"
            let sim = try FairFuelExecutable.run(
                ["fleet-sim", "--cars", "4", "--days", "6", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", cars, "--publish-per-s", "2000"])
            #expect(sim.exitCode == 0, "\(sim.standardError)")
            for hub in hubs { #expect(hub.wait(seconds: 30) == .exited(0), "\(hub.standardError)") }
            let hubStore = try HubRecordStore(path: database)
            var expected = 0
            for car in 0..<4 {
                let store = try TripStore(path: "\(cars)/car-\(car).db", readOnly: true)
                let own = try store.sessions().count + store.refuels().count + store.splits().count
                let held = try hubStore.records(vehicle: store.vehicleUplinkID())
                #expect(held.count == own, "car \(car): the hub holds \(held.count) records, the car \(own)")
                #expect(Set(held.map { "\($0.kind):\($0.id)" }).count == held.count)
                #expect(try store.outboxStatistics().pendingMessages == 0, "every message acknowledged")
                expected += own
            }
            #expect(try hubStore.recordCount() == expected && expected > 0)
            #expect(sim.standardOutput.contains("fleet-sim: \(expected) message(s) published and acknowledged"), "\(sim.standardOutput)")
        }
    }
}
