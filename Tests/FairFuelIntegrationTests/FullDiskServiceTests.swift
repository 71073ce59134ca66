import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// `fairfuel run` with its store on a small tmpfs that fills up mid-trip: the session end
    /// waits in memory and `status` says so, the service catches up by itself when space comes
    /// back, and a SIGTERM while the disk is full again either flushes everything or says
    /// exactly what it could not keep (exit 75), never "store flushed" over a loss.
    @Suite struct FullDiskServiceTests {
        @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"))
        func aFullDiskIsShownCaughtUpAndNeverHiddenAtShutdown() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let fs = try SmallFileSystem(megabytes: 3)
                defer { fs.unmount() }
                let db = fs.directory + "/fairfuel.db"
                try FileManager.default.copyItem(atPath: rig.databasePath, toPath: db)
                _ = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.spawn("run", ["run", "--port", rig.linkPath, "--db", db, "--control", rig.controlPath])
                try rig.waitUntilDriving(kilometers: 0.5, run: run)
                // Something else fills the file system; the session ends while it is full.
                let filler = fs.fill()
                usleep(300_000)
                _ = try rig.endSession()
                // Either the store still finds room (a checkpoint, the reserve, old tracks thinned) and
                // the end is in, or it waits in memory and status says so; never neither.
                var held: ServiceStatus?
                var endedInStore = false
                try rig.waitUntil("the session end in the store, or held and shown", seconds: 30) {
                    held = rig.status()
                    endedInStore = (try? TripStore(path: db, readOnly: true).sessions().first?.endReason) == .manual
                    return endedInStore || (held?.json["store_pending_records"] as? Int ?? 0) > 0
                }
                #expect(held?.json["store_lost"] is [String: Any], "status has no store_lost")
                print("full disk, session end while full: \(endedInStore ? "written" : "held"); status pending \(held?.json["store_pending_records"] ?? "?"), lost \(held?.json["store_lost"] ?? "?")")

                // Space comes back: no restart, anything held goes in.
                try FileManager.default.removeItem(atPath: filler)
                try rig.waitUntil("the service catches up", seconds: 30) {
                    let status = rig.status()
                    return status?.json["store_pending_records"] as? Int == 0 && status?.json["store_refusing_writes"] as? Bool == false
                }
                let store = try TripStore(path: db, readOnly: true)
                let sessions = try store.sessions()
                #expect(sessions.count == 1 && sessions.first?.endReason == .manual, "\(sessions)")

                // Full again, then SIGTERM: whatever the shutdown cannot write is named, with exit 75.
                fs.fill()
                usleep(500_000)
                run.send(SIGTERM)
                let ending = run.wait(seconds: 10)
                let log = run.standardError
                print("full disk, SIGTERM while full: \(ending.map(\.description) ?? "still running"); \(log.split(separator: "\n").last ?? "")")
                if ending == .exited(0) {
                    #expect(log.contains("store flushed"))
                    #expect(!log.contains("could not keep"))
                } else {
                    #expect(ending == .exited(75), "\(ending.map(\.description) ?? "still running")")
                    #expect(log.contains("the store could not keep"), "\(log.suffix(1_000))")
                    #expect(!log.contains("store flushed"))
                }
            }
        }

        /// `fairfuel run` started on a store whose file system is full to the last byte (no room even
        /// for SQLite's `-shm` index, no reserve): it runs, says so in the log and in `status`, holds
        /// the trip in memory, and stores it by itself when space comes back.
        @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"))
        func aServiceStartedOnAFullDiskStoresTheTripWhenSpaceComesBack() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let fs = try SmallFileSystem(megabytes: 6)
                defer { fs.unmount() }
                let db = fs.directory + "/fairfuel.db"
                try FileManager.default.copyItem(atPath: rig.databasePath, toPath: db)
                let filler = fs.fill()
                _ = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let run = try rig.spawn("run", ["run", "--port", rig.linkPath, "--db", db, "--control", rig.controlPath])
                try rig.waitUntilDriving(kilometers: 0.5, run: run)
                let full = rig.status()
                #expect(full?.json["store_refusing_writes"] as? Bool == true)
                #expect((full?.json["store_note"] as? String)?.contains("started on a full disk") == true, "\(full?.json ?? [:])")
                #expect(run.standardError.contains("is full at start-up"), "\(run.standardError.suffix(1_000))")
                _ = try rig.endSession()
                try rig.waitUntil("the session end held in memory", seconds: 30) {
                    (rig.status()?.json["store_pending_records"] as? Int ?? 0) > 0
                }

                // Space comes back: no restart, the trip goes in and other commands read the store again.
                try FileManager.default.removeItem(atPath: filler)
                try rig.waitUntil("the service catches up", seconds: 30) {
                    let status = rig.status()
                    return status?.json["store_pending_records"] as? Int == 0 && status?.json["store_refusing_writes"] as? Bool == false
                }
                let sessions = try TripStore(path: db, readOnly: true).sessions()
                #expect(sessions.count == 1 && sessions.first?.endReason == .manual, "\(sessions)")
                #expect(sessions.first?.driverName == "Anna")
                // Points the fixed buffer could not hold while the start waited are counted, never hidden.
                run.send(SIGTERM)
                let ending = run.wait(seconds: 10)
                let log = run.standardError
                if ending == .exited(0) {
                    #expect(log.contains("store flushed"), "\(log.suffix(1_000))")
                } else {
                    #expect(ending == .exited(75), "\(ending.map(\.description) ?? "still running")")
                    #expect(log.contains("could not keep") && log.contains("counted in the store"), "\(log.suffix(1_000))")
                }
            }
        }
    }
}
