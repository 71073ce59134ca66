import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// `rm fairfuel.db fairfuel.db-wal fairfuel.db-shm` under `fairfuel run` mid-trip: the service
    /// notices within a tick, writes the store back at its path from the open connection, says so
    /// in the log and `status`, keeps the single-instance lock on the file written back (a second
    /// service on it is refused), and the trip and the drivers are there after the stop.
    @Suite struct DeletedStoreServiceTests {
        @Test func aStoreDeletedMidTripIsWrittenBackAndTheTripKept() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let db = rig.databasePath
                let drivers = try TripStore(path: db, readOnly: true).directory().drivers.map(\.name)
                _ = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.spawn("run", ["run", "--port", rig.linkPath, "--db", db, "--control", rig.controlPath])
                try rig.waitUntilDriving(kilometers: 0.3, run: run)
                for file in [db, db + "-wal", db + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
                try rig.waitUntil("the store written back and shown", seconds: 15) {
                    (rig.status()?.json["store_note"] as? String)?.contains("deleted while the service ran") == true
                }
                #expect(FileManager.default.fileExists(atPath: db))
                #expect(run.standardError.contains("was deleted while the service ran"), "\(run.standardError.suffix(1_000))")
                // The single-instance lock followed the file written back: a second service on it is refused.
                let second = try rig.spawn("run", [
                    "run", "--port", rig.directory + "/no-such-port", "--db", db, "--control", rig.directory + "/second.sock",
                ])
                let secondEnding = second.wait(seconds: 20)
                #expect(secondEnding != nil && secondEnding != .exited(0), "a second run on the restored store: \(secondEnding.map(\.description) ?? "still running")")
                #expect(second.standardError.contains("the store \(db) is in use by process \(run.pid)"), "\(second.standardError)")
                if second.isRunning { second.send(SIGTERM); _ = second.wait(seconds: 10) }
                #expect(run.isRunning)
                _ = try rig.endSession()
                run.send(SIGTERM)
                #expect(run.wait(seconds: 10) == .exited(0))
                let store = try TripStore(path: db, readOnly: true)
                #expect(try store.directory().drivers.map(\.name) == drivers)
                let sessions = try store.sessions()
                #expect(sessions.count == 1 && sessions.first?.endReason == .manual, "\(sessions)")
                #expect(try store.tripPoints(session: try #require(sessions.first?.id)).count > 0)
                #expect(try store.events(kind: "store_restored").count == 1)
            }
        }
    }
}
