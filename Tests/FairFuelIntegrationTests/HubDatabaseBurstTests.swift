import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// A car back from a week without network publishes 3,000 messages at once; at the broker's
    /// default limits (Mosquitto's `max_queued_messages` 1000, `max_inflight_messages` 20) a hub on
    /// its database stores every one, and a second car's trip published meanwhile is stored
    /// within seconds.
    @Suite(.enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"))
    struct HubDatabaseBurstTests {
        static let publisherPath = "/usr/bin/mosquitto_pub"
        static let burstCar = "0123456789abcdef0123456789abcdef"
        static let otherCar = "fedcba9876543210fedcba9876543210"

        static func trip(vehicle: String, id: Int) -> String {
            #"{"v":1,"message_id":\#(id),"vehicle":"\#(vehicle)","vehicle_name":"Van","id":\#(id),"revision":0,"driver":"Anna","start_utc":"2026-11-25T07:41:03.000Z","end_utc":"2026-11-25T08:06:10.000Z","end_reason":"departed","distance_m":21406.3,"fuel_ml":1482.3,"duration_ms":1507212}"#
        }

        @Test(.timeLimit(.minutes(3)))
        func aBurstOf3000IsAllStoredAndAnotherCarsTripIsNotKeptWaiting() throws {
            let harness = try MosquittoHarness()
            defer { harness.shutDown() }
            let directory = harness.directory + "/hub"
            let database = harness.directory + "/hub.db"
            let hub = try ChildProcess(
                name: "hub", executable: FairFuelExecutable.path,
                arguments: ["hub", "--url", "mqtt://127.0.0.1:\(harness.port)", "--dir", directory, "--db", database, "--until-idle", "20"],
                outputPath: harness.directory + "/hub.out", errorPath: harness.directory + "/hub.err")
            defer { hub.killGroup() }
            let deadline = Date().addingTimeInterval(10)
            while !harness.brokerLog.contains("Sending SUBACK to fairfuel-hub-") {
                guard Date() < deadline, hub.isRunning else { throw HarnessError("the hub did not subscribe: \(hub.standardError)") }
                usleep(10_000)
            }
            let count = 3_000
            let burst = Process()
            burst.executableURL = URL(fileURLWithPath: Self.publisherPath)
            burst.arguments = ["-h", "127.0.0.1", "-p", "\(harness.port)", "-q", "1", "-t", "fairfuel/\(Self.burstCar)/trip", "-l"]
            let input = Pipe()
            burst.standardInput = input
            let started = Date()
            try burst.run()
            // Half-way through, another car's trip.
            let other = Process()
            other.executableURL = URL(fileURLWithPath: Self.publisherPath)
            other.arguments = ["-h", "127.0.0.1", "-p", "\(harness.port)", "-q", "1", "-t", "fairfuel/\(Self.otherCar)/trip", "-m", Self.trip(vehicle: Self.otherCar, id: 1)]
            var otherSent = Date()
            // At a car's fastest (`publish_per_s` 1000, the most the board profile allows): 100 every 100 ms.
            for chunk in stride(from: 1, through: count, by: 100) {
                let lines = (chunk..<min(count + 1, chunk + 100)).map { Self.trip(vehicle: Self.burstCar, id: $0) }.joined(separator: "\n") + "\n"
                input.fileHandleForWriting.write(Data(lines.utf8))
                if chunk == 1_501 {
                    otherSent = Date()
                    try other.run()
                }
                usleep(100_000)
            }
            other.waitUntilExit()
            try input.fileHandleForWriting.close()

            let store = try HubRecordStore(path: database)
            var otherStoredAfter: Double?
            var stored = 0
            while Date().timeIntervalSince(started) < 150 {
                if otherStoredAfter == nil, try store.vehicles().contains(Self.otherCar) { otherStoredAfter = Date().timeIntervalSince(otherSent) }
                stored = try store.records(vehicle: Self.burstCar).count
                if stored == count && otherStoredAfter != nil { break }
                usleep(100_000)
            }
            burst.waitUntilExit()
            let seconds = Date().timeIntervalSince(started)
            print("hub burst: \(stored) of \(count) stored in \(String(format: "%.1f", seconds)) s (\(Int(Double(stored) / seconds)) messages/s); the other car's trip after \(otherStoredAfter.map { String(format: "%.2f", $0) } ?? "never") s")
            #expect(stored == count, "every message stored: \(hub.standardError)")
            #expect((otherStoredAfter ?? 999) < 5, "the other car's trip waited \(otherStoredAfter ?? -1) s")
            #expect(!harness.brokerLog.contains("Outgoing messages are being dropped"), "the broker dropped messages for the hub")
        }
    }
}
