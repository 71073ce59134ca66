import FairFuelHubPostgres
import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// The PostgreSQL server restarted under a running hub: the messages the hub held when the
    /// connection dropped, those the broker kept while the server was down and those after are
    /// all stored, each once; the hub connects again on its own and never stops.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent && PostgresHarness.toolsPresent,
                    "\(MosquittoHarness.missingMessage); or \(PostgresHarness.missingMessage)"))
    struct HubPostgresRestartTests {
        static let car = HubDatabaseBurstTests.burstCar

        @Test(.timeLimit(.minutes(3)))
        func aRestartedServerLosesNoMessageAndStoresNoneTwice() throws {
            let server = try PostgresHarness()
            defer { server.shutDown() }
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let hub = try ChildProcess(
                name: "hub", executable: FairFuelExecutable.path,
                arguments: ["hub", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", harness.directory + "/hub", "--db", server.url(),
                            "--until-idle", "8"],
                outputPath: harness.directory + "/hub.out", errorPath: harness.directory + "/hub.err")
            defer { hub.killGroup() }
            let deadline = Date().addingTimeInterval(10)
            while !harness.brokerLog.contains("Sending SUBACK to fairfuel-hub-") {
                guard Date() < deadline, hub.isRunning else { throw HarnessError("the hub did not subscribe: \(hub.standardError)") }
                usleep(10_000)
            }
            // Each part from a file through `mosquitto_pub -l` (standard input), run to its end.
            func publish(_ ids: ClosedRange<Int>) throws {
                let lines = harness.directory + "/trips-\(ids.lowerBound).txt"
                try (ids.map { HubDatabaseBurstTests.trip(vehicle: Self.car, id: $0) }.joined(separator: "\n") + "\n")
                    .write(toFile: lines, atomically: true, encoding: .utf8)
                let publisher = try ChildProcess(
                    name: "publish-\(ids.lowerBound)", executable: "/bin/sh",
                    arguments: ["-c", "\(HubDatabaseBurstTests.publisherPath) -h 127.0.0.1 -p \(harness.port) -q 1 -t fairfuel/\(Self.car)/trip -l < \(lines)"],
                    outputPath: lines + ".out", errorPath: lines + ".err")
                #expect(publisher.wait(seconds: 30) == .exited(0), "\(publisher.standardError)")
            }
            // Before: 250 at once, and the server stopped while the hub may still be storing them.
            try publish(1...250)
            try server.stop()
            // During: 250 more, which the broker keeps for the hub's session: all three parts together stay below
            // Mosquitto's default 1000 a session, since the hub reads nothing while it cannot store.
            try publish(251...500)
            usleep(500_000)
            try server.start()
            // After: 250 more.
            try publish(501...750)
            #expect(hub.wait(seconds: 90) == .exited(0), "the hub went on and stopped when idle: \(hub.standardError)")
            let store = try HubPostgresStore(url: server.url())
            let held = try store.records(vehicle: Self.car)
            #expect(held.count == 750 && Set(held.map(\.id)) == Set(1...750), "every message stored: \(held.count); \(hub.standardError)")
            let out = (try? String(contentsOfFile: harness.directory + "/hub.out", encoding: .utf8)) ?? ""
            #expect(out.hasPrefix("hub: 750 record message(s) kept, 0 duplicate"), "each stored once: \(out)")
            #expect(hub.standardError.contains("the database is back"), "\(hub.standardError)")
            #expect(!harness.brokerLog.contains("Outgoing messages are being dropped"), "the broker dropped messages for the hub")
        }
    }
}
