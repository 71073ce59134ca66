import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// The store on a file system that is read-only: `fairfueld` runs on it, keeps the session in
    /// memory and says so in `status` and the journal, `trips` and `store check` read the store,
    /// and what the service holds is written once the file system is writable again.
    @Suite struct ReadOnlyStoreServiceTests {
        /// Started on a tmpfs mounted read-only (nothing holds it open, so the remount is allowed),
        /// remounted writable after the trip: the held session goes in without a restart.
        @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"))
        func aServiceStartedOnAReadOnlyStoreHoldsTheTripAndWritesItWhenWritable() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let fs = try SmallFileSystem(megabytes: 8)
                defer { fs.unmount() }
                let db = fs.directory + "/fairfuel.db"
                try FileManager.default.copyItem(atPath: rig.databasePath, toPath: db)
                try #require(fs.remount(readOnly: true))
                _ = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let daemon = try rig.startDaemon(database: db)
                try rig.waitUntilDriving(kilometers: 0.5, run: daemon)
                let driving = try #require(rig.status())
                #expect(driving.json["store_refusing_writes"] as? Bool == true)
                #expect((driving.json["store_note"] as? String)?.contains("read-only") == true, "\(driving.json)")
                #expect(daemon.standardError.contains("is read-only"), "\(daemon.standardError.suffix(1_000))")
                _ = try rig.endSession()
                try rig.waitUntil("the session end held in memory", seconds: 30) {
                    (rig.status()?.json["store_pending_records"] as? Int ?? 0) > 0
                }
                // The CLI reads the read-only store (the provisioned drivers, no trip yet), saying how.
                try Self.expectCLIReads(db, trips: 0, notedAsReadOnly: true)

                #expect(fs.remount(readOnly: false))
                try rig.waitUntil("the service writes what it held", seconds: 30) {
                    let status = rig.status()
                    return status?.json["store_pending_records"] as? Int == 0 && status?.json["store_refusing_writes"] as? Bool == false
                }
                #expect(!(rig.status()?.json["store_note"] is String), "\(rig.status()?.json ?? [:])")
                #expect(daemon.standardError.contains("writable again"), "\(daemon.standardError.suffix(1_000))")
                daemon.send(SIGTERM)
                let ending = daemon.wait(seconds: 10)
                let sessions = try TripStore(path: db, readOnly: true).sessions()
                #expect(sessions.count == 1 && sessions.first?.driverName == "Anna" && sessions.first?.endReason == .manual, "\(sessions)")
                // Points the buffer could not hold while the start waited are counted, never hidden.
                if ending != .exited(0) {
                    #expect(ending == .exited(75), "\(ending.map(\.description) ?? "still running")")
                    #expect(daemon.standardError.contains("counted in the store"), "\(daemon.standardError.suffix(1_000))")
                }
            }
        }

        /// An ext4 file system that the kernel remounts read-only mid-drive (as after SD card errors,
        /// with the service's files open): the service carries on, holds the session, says so; the CLI
        /// reads the store; a stop names what could not be kept (exit 75); after a repair the store
        /// is sound and holds what was committed before the error.
        @Test(.enabled(if: ErrorRemountingFileSystem.isAvailable, "needs root, a loop device and ext4"))
        func aStoreRemountedReadOnlyMidDriveIsHeldAndNamed() throws {
            try IntegrationTests.withRig("drive.scenario") { rig in
                let fs = try ErrorRemountingFileSystem(megabytes: 16)
                defer { fs.unmount() }
                let db = fs.directory + "/fairfuel.db"
                try FileManager.default.copyItem(atPath: rig.databasePath, toPath: db)
                // On the card long before: an error keeps unwritten pages from ever reaching it.
                sync()
                _ = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let daemon = try rig.startDaemon(database: db)
                try rig.waitUntilDriving(kilometers: 0.3, run: daemon)
                try #require(fs.failWithError())
                try rig.waitUntil("the read-only store shown", seconds: 30) {
                    (rig.status()?.json["store_note"] as? String)?.contains("read-only") == true
                }
                #expect(daemon.standardError.contains("went read-only"), "\(daemon.standardError.suffix(1_000))")
                _ = try rig.endSession()
                try rig.waitUntil("the session end held in memory", seconds: 30) {
                    (rig.status()?.json["store_pending_records"] as? Int ?? 0) > 0
                }
                #expect(daemon.isRunning)
                // The session's start went in before the error; its end is held.
                try Self.expectCLIReads(db, trips: 1)
                daemon.send(SIGTERM)
                let ending = daemon.wait(seconds: 15)
                let log = daemon.standardError
                print("read-only mid-drive, SIGTERM: \(ending.map(\.description) ?? "still running"); \(log.split(separator: "\n").last ?? "")")
                #expect(ending == .exited(75), "\(ending.map(\.description) ?? "still running")")
                #expect(log.contains("could not keep") && log.contains("read-only"), "\(log.suffix(1_000))")
                #expect(!log.contains("store flushed"))

                // Repaired and mounted again: sound, and the session as far as it was written.
                try #require(fs.repairAndRemount())
                #expect(try TripStore(path: db, readOnly: true).checkIntegrity(full: true) == [])
                let sessions = try TripStore(path: db, readOnly: true).sessions()
                #expect(sessions.count == 1 && sessions.first?.driverName == "Anna", "\(sessions)")
            }
        }

        /// `fairfuel trips` and `fairfuel store check` on the read-only store: both read it.
        static func expectCLIReads(_ db: String, trips: Int, notedAsReadOnly: Bool = false) throws {
            let listed = try FairFuelExecutable.run(["trips", "--json", "--db", db])
            #expect(listed.exitCode == 0, "trips: \(listed.standardError)")
            if notedAsReadOnly { #expect(listed.standardError.contains("is read-only; reading the file as it is on disk"), "\(listed.standardError)") }
            let rows = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
            #expect(rows?.filter { $0["id"] is Int }.count == trips, "\(listed.standardOutput)")
            let check = try FairFuelExecutable.run(["store", "check", "--db", db])
            #expect(check.exitCode == 0 && check.standardOutput.contains(": ok"), "store check: \(check.standardOutput) \(check.standardError)")
        }
    }
}
