import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// A hub that starts after a car published (docs/mqtt.md, "A late hub"): with `--secrets` it
    /// asks the car for what it missed and ends with the car's book; without, it says it cannot ask,
    /// and `hub status --db` says so beside the cars' records.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"))
    struct HubLateResendTests {
        static func run(_ arguments: [String], board: String? = nil) throws -> CommandResult {
            let result = try FairFuelExecutable.run(arguments, environment: board.map { ["FAIRFUEL_BOARD": $0] } ?? [:])
            #expect(result.exitCode == 0, "\(arguments.joined(separator: " ")): \(result.standardError)")
            return result
        }

        /// The car's closed trips, by id.
        static func carTrips(_ rig: IntegrationRig) throws -> [Int64] {
            try rig.openStore().sessions().filter { $0.endReason != nil }.map(\.id.rawValue).sorted()
        }

        /// Dana (the sample drive's tag) enrolled, and the 20 s sample replayed until the car holds
        /// `count` trips, queued for the uplink; the car's trips.
        static func recordTrips(_ rig: IntegrationRig, board: String, count: Int) throws -> [Int64] {
            _ = try run(
                ["provision", "driver", "add", "Dana", "--tag", HubTests.annaTag, "--beacon", HubTests.annaBeacon, "--db", rig.databasePath],
                board: board)
            var replays = 0
            while try carTrips(rig).count < count, replays < 2 * count {
                replays += 1
                _ = try run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again", "--db", rig.databasePath], board: board)
            }
            return try carTrips(rig)
        }

        static func hubTrips(_ database: String, vehicle: String) throws -> [Int64] {
            try HubRecordStore(path: database).records(vehicle: vehicle).filter { $0.kind == "trip" && !$0.deleted }.map(\.id).sorted()
        }

        @Test(.timeLimit(.minutes(3)))
        func aHubStartedAfterTheCarPublishedAsksForWhatItMissed() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let (vehicle, board, secretFile) = try FleetCommandServiceTests.pairedCarOnBroker(rig, harness)
                let secrets = rig.directory + "/secrets"
                try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: secretFile, toPath: secrets + "/\(vehicle).secret")
                let url = "mqtt://127.0.0.1:\(harness.port)"

                // Five trips, published while no hub existed: the broker kept them for nobody.
                let trips = try Self.recordTrips(rig, board: board, count: 5)
                #expect(trips.count == 5, "\(trips)")
                let car = try rig.startRun(extra: ["--board", board])
                try rig.waitUntil("the car subscribes to its commands", seconds: 20) { harness.brokerLog.contains("fairfuel/\(vehicle)/command") }
                try rig.waitUntil("the car published its trips", seconds: 30) { UplinkServiceTests.uplink(rig)?["pending"] as? Int == 0 }

                // Without --secrets: the hub says it cannot ask, holds nothing of the car, and its status says so.
                let blind = rig.directory + "/blind"
                let blindHub = try Self.run(["hub", "--url", url, "--dir", blind, "--db", blind + ".db", "--until-idle", "2"])
                #expect(blindHub.standardError.contains("without --secrets this hub cannot ask the cars"), "\(blindHub.standardError)")
                #expect(try Self.hubTrips(blind + ".db", vehicle: vehicle).isEmpty)
                let blindStatus = try Self.run(["hub", "status", "--dir", blind, "--db", blind + ".db"])
                #expect(blindStatus.standardOutput.contains("cars: 0") && blindStatus.standardOutput.contains("runs without --secrets"),
                        "\(blindStatus.standardOutput)")

                // With --secrets: asked since 0 (nothing held), the car publishes its book again, the hub has every trip.
                let hub = rig.directory + "/hub"
                let database = hub + ".db"
                let collect = ["hub", "--url", url, "--dir", hub, "--db", database, "--secrets", secrets, "--until-idle", "4"]
                let late = try Self.run(collect)
                #expect(late.standardError.contains("asked \(vehicle) to resend since message 0"), "\(late.standardError)")
                #expect(try Self.hubTrips(database, vehicle: vehicle) == trips, "the hub ends with the car's own trips")
                let status = try Self.run(["hub", "status", "--dir", hub, "--db", database])
                #expect(status.standardOutput.contains("\(vehicle): 5 trip(s), 0 refuel(s), 0 split(s); last stored "), "\(status.standardOutput)")
                #expect(status.standardOutput.contains("the hub asks each car with a secret in \(secrets)"), "\(status.standardOutput)")
                #expect(status.standardOutput.contains("resend: applied: "), "the car's answer kept: \(status.standardOutput)")

                // The next run asks since the highest message id it holds: nothing is missing, nothing comes again.
                let highest = try #require(try HubRecordStore(path: database).kindSummaries().compactMap(\.highestMessageID).max())
                let again = try Self.run(collect)
                #expect(again.standardError.contains("asked \(vehicle) to resend since message \(highest)"), "\(again.standardError)")
                let json = try Self.run(["hub", "status", "--dir", hub, "--db", database, "--json"]).standardOutput
                #expect(json.contains("\"reason\":\"0 record message(s) queued again\""), "\(json)")
                #expect(json.contains("\"asks_cars_to_resend\":true") && json.contains("\"trips\":5"), "\(json)")

                // A secret added while the hub runs: the car is asked at its next message, since what the hub held before it.
                try FileManager.default.removeItem(atPath: secrets + "/\(vehicle).secret")
                let held = try #require(try HubRecordStore(path: database).kindSummaries().compactMap(\.highestMessageID).max())
                let running = try ChildProcess(
                    name: "hub", executable: FairFuelExecutable.path, arguments: Array(collect.dropLast(2)), outputPath: rig.directory + "/hub.out",
                    errorPath: rig.directory + "/hub.err")
                defer { running.killGroup() }
                try rig.waitUntil("the hub asks nobody", seconds: 20) { running.standardError.contains("asking 0 car(s)") }
                try FileManager.default.copyItem(atPath: secretFile, toPath: secrets + "/\(vehicle).secret")
                try UplinkServiceTests.addRefuels(rig, board: board, count: 1)
                try rig.waitUntil("the hub asks the car and stores its refuel", seconds: 30) {
                    let stored = try HubRecordStore(path: database).records(vehicle: vehicle).contains { $0.kind == "refuel" }
                    return stored && running.standardError.contains("asked \(vehicle) to resend since message ")
                }
                #expect(running.standardError.contains("asked \(vehicle) to resend since message \(held) "), "\(running.standardError)")
                running.send(SIGTERM)
                #expect(running.wait(seconds: 10) == .exited(0), "\(running.standardError)")
                car.send(SIGTERM)
                #expect(car.wait(seconds: 5) == .exited(0))
            }
        }

        /// Many cars with a secret: the requests go out ten a second, never all at once, each once,
        /// each pending until its car answers; an idle hub stays until the last is sent.
        @Test(.timeLimit(.minutes(1)))
        func requestsGoOutAtABoundedPace() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let secrets = harness.directory + "/secrets"
            try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true)
            let cars = (10..<40).map { "car-\($0)" }
            for car in cars { try FleetCommandServiceTests.secretHex.write(toFile: "\(secrets)/\(car).secret", atomically: true, encoding: .utf8) }
            let commands = try harness.subscribe(topic: "fairfuel/+/command", count: 1_000, seconds: 20)
            let started = Date()
            let hub = try Self.run(
                ["hub", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", harness.directory + "/hub", "--secrets", secrets, "--until-idle", "1"])
            let seconds = Date().timeIntervalSince(started)
            let asked = hub.standardError.split(separator: "\n").filter { $0.contains("to resend since message 0") }
            #expect(asked.count == cars.count, "\(hub.standardError)")
            // 30 requests at ten a second take about 3 s (not 30, as at one a second; not none, as all at once).
            print("hub: \(cars.count) resend requests in \(String(format: "%.1f", seconds)) s")
            #expect(seconds >= Double(cars.count - 1) * 0.1 && seconds < 15, "\(seconds) s")
            let status = try Self.run(["hub", "status", "--dir", harness.directory + "/hub"])
            #expect(status.standardOutput.contains("commands: \(cars.count) (\(cars.count) pending)"), "\(status.standardOutput)")
            let deadline = Date().addingTimeInterval(5)
            while commands.log.split(separator: "\n").count < cars.count, Date() < deadline { usleep(20_000) }
            let published = commands.log.split(separator: "\n")
            #expect(Set(published.compactMap { $0.split(separator: "/").dropFirst().first.map(String.init) }) == Set(cars), "\(published)")
        }

        @Test func statusRefusesWhatIsNotAHubsDatabase() throws {
            let directory = NSTemporaryDirectory() + "fairfuel-hub-status-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            _ = try TripStore(path: directory + "/car.db")
            let car = try FairFuelExecutable.run(["hub", "status", "--dir", directory, "--db", directory + "/car.db"])
            #expect(car.exitCode == 1 && car.standardError.contains("not a hub's"), "\(car.standardError)")
            let missing = try FairFuelExecutable.run(["hub", "status", "--dir", directory, "--db", directory + "/none.db"])
            #expect(missing.exitCode == 1 && missing.standardError.contains("not a hub's database"), "\(missing.standardError)")
        }
    }
}
