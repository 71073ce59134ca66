import FairFuelHubPostgres
import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// The hub's database on a real PostgreSQL server (`--db postgres://...`), started by the test
    /// with initdb and pg_ctl: the same idempotent offer as the SQLite file, two hub instances on
    /// one shared subscription storing every record once, hostile messages refused as with SQLite.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent && PostgresHarness.toolsPresent,
                    "\(MosquittoHarness.missingMessage); or \(PostgresHarness.missingMessage)"))
    struct HubPostgresTests {
        static let car = HubDatabaseBurstTests.burstCar
        static let copier = HubDatabaseBurstTests.otherCar

        @Test(.timeLimit(.minutes(2)))
        func theOfferKeepsEachRevisionOnceAndTwoConnectionsAgree() throws {
            let server = try PostgresHarness()
            defer { server.shutDown() }
            let first = try HubPostgresStore(url: server.url())
            let second = try HubPostgresStore(url: server.url())
            func offer(_ store: HubPostgresStore, id: Int64, revision: Int64, deleted: Bool = false) throws -> HubOffer {
                try store.offer(vehicle: Self.car, kind: "trip", id: id, revision: revision, deleted: deleted, messageID: revision, payload: "r\(revision)", storedUTCMs: 1_000 + revision)
            }
            #expect(try offer(first, id: 1, revision: 0) == .kept)
            #expect(try offer(second, id: 1, revision: 0) == .stale, "the same record from the other instance")
            #expect(try offer(second, id: 1, revision: 2, deleted: true) == .kept)
            #expect(try offer(first, id: 1, revision: 1) == .stale, "an older correction arriving late")
            #expect(try first.records(vehicle: Self.car) == [HubRecord(kind: "trip", id: 1, revision: 2, deleted: true, payload: "r2")])
            #expect(try first.claimVehicleUID("uid-1", vehicle: Self.car) == Self.car)
            #expect(try second.claimVehicleUID("uid-1", vehicle: Self.copier) == Self.car, "bound to the first claim, for every instance")
            try first.setMeta("imported:x", "3")
            try first.setMeta("imported:x", "4")
            #expect(try second.meta("imported:x") == "4")
            // One transaction: a failure inside leaves nothing of it.
            #expect(throws: StoreError.self) {
                try first.inOneTransaction {
                    _ = try offer(first, id: 2, revision: 0)
                    throw StoreError.invalid("stop")
                }
            }
            #expect(try second.recordCount() == 1 && second.vehicles() == [Self.car])
            #expect(second.location == server.url(), "no password to hide")
        }

        /// A poll round in one go (`offerAll`: one statement per wave of distinct records): the same
        /// outcomes, one by one in order, as offering each alone, a record twice in a round included.
        @Test(.timeLimit(.minutes(2)))
        func aRoundOfferedTogetherKeepsWhatOffersOneByOneKeep() throws {
            let server = try PostgresHarness()
            defer { server.shutDown() }
            let store = try HubPostgresStore(url: server.url())
            func record(_ id: Int64, _ revision: Int64, message: Int64? = nil) -> HubRecordOffer {
                HubRecordOffer(vehicle: Self.car, kind: "trip", id: id, revision: revision, deleted: false, messageID: message, payload: "\(id)r\(revision)")
            }
            #expect(try store.offerAll([record(1, 1)], storedUTCMs: 1) == [.kept])
            let round = [record(1, 0), record(2, 0, message: 7), record(2, 1), record(3, 0), record(2, 1), record(1, 2)]
            #expect(try store.offerAll(round, storedUTCMs: 2) == [.stale, .kept, .kept, .kept, .stale, .kept])
            #expect(try store.records(vehicle: Self.car).map(\.payload) == ["1r2", "2r1", "3r0"])
            #expect(try store.offerAll(round, storedUTCMs: 3).allSatisfy { $0 == .stale }, "the same round again changes nothing")
            #expect(try store.offerAll([], storedUTCMs: 4).isEmpty)
        }

        @Test(.timeLimit(.minutes(2)))
        func aNewerSchemaAndAnUnreachableServerAreRefusedWithAClearError() throws {
            let server = try PostgresHarness()
            defer { server.shutDown() }
            let store = try HubPostgresStore(url: server.url())
            try store.inOneTransaction { try store.setMeta("x", "y") }
            try Self.psql(server, "INSERT INTO hub_migrations (name) VALUES ('hub-2099-01-01-future')")
            #expect(throws: StoreError.newerSchema(path: server.url(), unknownMigrations: ["hub-2099-01-01-future"])) {
                try HubPostgresStore(url: server.url())
            }
            guard let closed = freeLoopbackPort() else { throw HarnessError("no free loopback port") }
            let refused = #expect(throws: StoreError.self) { try HubPostgresStore(url: "postgres://fairfuel:secret@127.0.0.1:\(closed)/x") }
            #expect("\(refused!)".contains("cannot connect") && !"\(refused!)".contains("secret"), "\(refused!)")
            let hub = try FairFuelExecutable.run(["family", "postgres://fairfuel@127.0.0.1:\(closed)/x"])
            #expect(hub.exitCode != 0 && hub.standardError.contains("cannot connect"), "\(hub.standardError)")
        }

        /// `fairfuel fleet-sim` into two hub instances of one group on PostgreSQL: every record the
        /// simulated cars' own stores hold is there once, under its car.
        @Test(.timeLimit(.minutes(3)))
        func fleetSimIntoTwoHubsOnPostgresStoresEveryCarsRecordsOnce() throws {
            let server = try PostgresHarness()
            defer { server.shutDown() }
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let hubs = try HubSharedSubscriptionTests.startHubs(harness, database: server.url(), untilIdleSeconds: 5)
            defer { for hub in hubs { hub.killGroup() } }
            let cars = harness.directory + "/cars"
            let sim = try FairFuelExecutable.run(
                ["fleet-sim", "--cars", "4", "--days", "6", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", cars, "--publish-per-s", "2000"])
            #expect(sim.exitCode == 0, "\(sim.standardError)")
            for hub in hubs { #expect(hub.wait(seconds: 30) == .exited(0), "\(hub.standardError)") }
            let hubStore = try HubPostgresStore(url: server.url())
            var expected = 0
            for car in 0..<4 {
                let store = try TripStore(path: "\(cars)/car-\(car).db", readOnly: true)
                let own = try store.sessions().count + store.refuels().count + store.splits().count
                let held = try hubStore.records(vehicle: store.vehicleUplinkID())
                #expect(held.count == own, "car \(car): the hub holds \(held.count) records, the car \(own)")
                #expect(Set(held.map { "\($0.kind):\($0.id)" }).count == held.count)
                expected += own
            }
            #expect(try hubStore.recordCount() == expected && expected > 0)
            let kept = hubs.map { hub -> Int in
                let out = (try? String(contentsOfFile: harness.directory + "/\(hub.name).out", encoding: .utf8)) ?? ""
                return Int(out.split(separator: " ").dropFirst().first ?? "") ?? -1
            }
            #expect(kept.allSatisfy { $0 > 0 } && kept.reduce(0, +) == expected, "each instance took a part, none twice: \(kept)")
        }

        /// One hub on PostgreSQL and one on a SQLite file take the same good and hostile messages:
        /// the same refused, the same stored, and the family's view of both the same.
        @Test(.timeLimit(.minutes(3)))
        func hostileMessagesAreRefusedAsWithSQLite() throws {
            let server = try PostgresHarness()
            defer { server.shutDown() }
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let sqlite = harness.directory + "/hub.db"
            let hubs = try [("pg", server.url()), ("sqlite", sqlite)].map { name, database in
                try ChildProcess(
                    name: name, executable: FairFuelExecutable.path,
                    arguments: ["hub", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", harness.directory + "/" + name, "--db", database,
                                "--until-idle", "4"],
                    outputPath: harness.directory + "/\(name).out", errorPath: harness.directory + "/\(name).err")
            }
            defer { for hub in hubs { hub.killGroup() } }
            let deadline = Date().addingTimeInterval(10)
            // Each hub subscribes five times (trip, refuel, split, status, command/result); both must have, before the first message.
            while harness.brokerLog.components(separatedBy: "Sending SUBACK to fairfuel-hub-").count - 1 < 10 {
                guard Date() < deadline else { throw HarnessError("the hubs did not subscribe: \(hubs.map(\.standardError))") }
                usleep(10_000)
            }
            let good = HubDatabaseBurstTests.trip(vehicle: Self.car, id: 1)
            func claiming(_ vehicle: String, id: Int) -> String {
                HubDatabaseBurstTests.trip(vehicle: vehicle, id: id)
                    .replacingOccurrences(of: "\"vehicle_name\"", with: "\"vehicle_uid\":\"461c9861-7a2b-4c3d-8e4f-5a6b7c8d9e0f\",\"vehicle_name\"")
            }
            let messages: [(vehicle: String, payload: String)] = [
                (Self.car, claiming(Self.car, id: 1)),
                (Self.car, good.replacingOccurrences(of: "\"id\":1,", with: "\"id\":2,").replacingOccurrences(of: "21406.3", with: "999999999999")),
                (Self.car, good.replacingOccurrences(of: "\"id\":1,", with: "\"id\":3,").replacingOccurrences(of: "\"driver\":\"Anna\"", with: "\"driver\":42")),
                (Self.car, good.replacingOccurrences(of: "\"id\":1,", with: "\"id\":4,").replacingOccurrences(of: "\"start_utc\":\"2026-11-25T07:41:03.000Z\"", with: "\"start_utc\":\"yesterday\"")),
                (Self.car, good.replacingOccurrences(of: "\"id\":1,", with: "\"id\":5,").replacingOccurrences(of: "\"driver\":\"Anna\"", with: "\"driver\":\"Robert'); DROP TABLE hub_records;--\"")),
                (Self.copier, claiming(Self.copier, id: 6)),
                (Self.car, HubDatabaseBurstTests.trip(vehicle: Self.car, id: 7)),
            ]
            for (vehicle, payload) in messages {
                let publish = try Self.tool(
                    "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(harness.port)", "-q", "1", "-t", "fairfuel/\(vehicle)/trip", "-m", payload])
                #expect(publish == 0)
            }
            for hub in hubs { #expect(hub.wait(seconds: 30) == .exited(0), "\(hub.standardError)") }
            let postgres = try HubPostgresStore(url: server.url())
            let file = try HubRecordStore(path: sqlite)
            #expect(try postgres.vehicles() == [Self.car], "the copier's claim refused")
            let held = try postgres.records(vehicle: Self.car)
            #expect(held.map(\.id) == [1, 5, 7], "names are data: \(held)")
            #expect(try postgres.records(vehicle: Self.car) == file.records(vehicle: Self.car))
            for (name, database) in [("pg", server.url()), ("sqlite", sqlite)] {
                // The refusals are in each engine's database (`hub_refusals`), none in the hub's directory.
                let status = try FairFuelExecutable.run(["hub", "status", "--dir", harness.directory + "/" + name, "--db", database, "--json"])
                #expect(status.standardOutput.components(separatedBy: "\"reason\"").count - 1 == 4, "\(name): \(status.standardOutput)")
                #expect(!FileManager.default.fileExists(atPath: harness.directory + "/" + name + "/.fairfuel-hub-refused.tsv"))
                #expect(status.standardOutput.contains("belongs to vehicle \(Self.car), which claimed it first"), "\(status.standardOutput)")
                // The database's cars with their records, and the same refusals.
                let held = try FairFuelExecutable.run(["hub", "status", "--dir", harness.directory + "/" + name, "--db", database])
                #expect(held.exitCode == 0 && held.standardOutput.contains("cars: 1 in "), "\(name): \(held.standardOutput) \(held.standardError)")
                #expect(held.standardOutput.contains("\(Self.car): 3 trip(s), 0 refuel(s), 0 split(s); last stored 20"), "\(name): \(held.standardOutput)")
                #expect(held.standardOutput.contains("refused messages: 4"), "\(name): \(held.standardOutput)")
                #expect(!held.standardOutput.contains("PGPASSWORD") && !held.standardOutput.contains("password="))
            }
            // The family's views read either database alike.
            let fromPostgres = try FairFuelExecutable.run(["family", server.url(), "--json"])
            let fromFile = try FairFuelExecutable.run(["family", sqlite, "--json"])
            #expect(fromPostgres.exitCode == 0 && fromPostgres.standardOutput == fromFile.standardOutput, "\(fromPostgres.standardError)")
            #expect(fromPostgres.standardOutput.contains("DROP TABLE"), "the driver's name kept as data: \(fromPostgres.standardOutput)")
        }

        /// Runs `executable` to its end; its exit status.
        static func tool(_ executable: String, _ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }

        static func psql(_ server: PostgresHarness, _ sql: String) throws {
            #expect(try Self.tool("/usr/bin/psql", ["-h", "127.0.0.1", "-p", "\(server.port)", "-U", "fairfuel", "-d", "postgres", "-c", sql]) == 0)
        }
    }
}
