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
    /// in the log and `status`, and the trip and the drivers are there after the stop.
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
