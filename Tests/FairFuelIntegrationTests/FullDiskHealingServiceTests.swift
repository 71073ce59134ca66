import FairFuelCore
import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// `fairfueld` with its store on a 2 MB and a 3 MB tmpfs, filled by another file mid-drive and
    /// freed 10 s later, through a morning of twelve sessions and three untracked drives: within
    /// seconds of the space coming back the store takes writes again, its WAL is given back and the
    /// reserve retaken, without a restart; at the end every session is in the store or counted in
    /// its `store_losses`, and what `status` said was lost is what the store counts.
    @Suite struct FullDiskHealingServiceTests {
        @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"), arguments: [2, 3])
        func aDiskFilledAndFreedMidDriveHealsWithoutARestart(megabytes: Int) throws {
            try IntegrationTests.withRig("busy-day.scenario") { rig in
                let fs = try SmallFileSystem(megabytes: megabytes)
                defer { fs.unmount() }
                let db = fs.directory + "/fairfuel.db"
                try FileManager.default.copyItem(atPath: rig.databasePath, toPath: db)
                let sim = try rig.startSim(speed: IntegrationTests.speed, idleSpeed: IntegrationTests.idleSpeed)
                let daemon = try rig.startDaemon(database: db)
                // Mid-drive: Ben's first trip, the day's second session.
                try rig.waitUntilDriving("Ben", kilometers: 0.3, run: daemon)
                let filler = fs.fill()
                sleep(10)
                let full = rig.status()
                try FileManager.default.removeItem(atPath: filler)
                let freedAt = Date()
                try rig.waitUntil("writes resume, the WAL is given back and the reserve retaken", seconds: 30) {
                    guard let status = rig.status() else { return false }
                    return status.json["store_refusing_writes"] as? Bool == false && status.json["store_pending_records"] as? Int == 0
                        && (status.json["store_reserve_bytes"] as? Int ?? 0) > 0
                }
                let healed = rig.status()
                let healSeconds = Date().timeIntervalSince(freedAt)
                print("\(megabytes) MB tmpfs: while full \(full.map { "refusing \($0.json["store_refusing_writes"] ?? "?"), pending \($0.json["store_pending_records"] ?? "?"), WAL \($0.json["store_wal_bytes"] ?? "?")" } ?? "no status"); "
                    + "healed in \(String(format: "%.1f", healSeconds)) s: WAL \(healed?.json["store_wal_bytes"] ?? "?"), reserve \(healed?.json["store_reserve_bytes"] ?? "?"), database \(healed?.json["store_database_bytes"] ?? "?")")
                // The WAL stays a small part of the disk (checkpointed to fit it), the reserve is back.
                let walBytes = healed?.json["store_wal_bytes"] as? Int ?? .max
                #expect(walBytes <= megabytes << 18, "WAL \(walBytes) bytes on a \(megabytes) MB disk")

                // The rest of the morning goes in as it happens.
                try rig.waitUntil("the sim's morning ends", seconds: IntegrationTests.patience) { !sim.isRunning }
                try rig.waitUntil("the last session ends and everything is written", seconds: 30) {
                    guard let status = rig.status() else { return false }
                    return status.sessionState == "IDLE" && status.json["store_pending_records"] as? Int == 0
                        && status.json["store_refusing_writes"] as? Bool == false
                }
                let before = try #require(rig.status())
                daemon.send(SIGTERM)
                let ending = daemon.wait(seconds: 15)
                let log = daemon.standardError
                let store = try TripStore(path: db, readOnly: true)
                let sessions = try store.sessions()
                let losses = try store.losses()
                let planned = rig.plan.trips.filter { !$0.drivers.isEmpty && $0.tapped }.count
                let untracked = try store.connection.query("SELECT COUNT(*) FROM untracked_driving") { $0.int64(0) }.first ?? 0
                print("\(megabytes) MB tmpfs: \(sessions.count) of \(planned) sessions stored, \(untracked) untracked row(s), store_losses \(losses); "
                    + "exit \(ending.map(\.description) ?? "still running"); \(log.split(separator: "\n").last ?? "")")
                // Every session is stored or counted; what status showed as lost is what the store holds.
                #expect(sessions.count + losses.sessionEnds == planned, "\(sessions.count) stored + \(losses.sessionEnds) counted of \(planned)")
                #expect(untracked > 0 || losses.untracked > 0)
                #expect((before.json["store_lost"] as? [String: Int]) == Self.lossesJSON(losses), "status \(before.json["store_lost"] ?? "?") vs store \(losses)")
                #expect(try store.checkIntegrity(full: true) == [])
                if losses.isEmpty {
                    #expect(ending == .exited(0), "\(ending.map(\.description) ?? "still running"): \(log.suffix(1_000))")
                    #expect(log.contains("store flushed"))
                } else {
                    #expect(ending == .exited(75), "\(ending.map(\.description) ?? "still running")")
                    #expect(log.contains("counted in the store"), "\(log.suffix(1_000))")
                }
            }
        }

        static func lossesJSON(_ losses: StoreLosses) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: StoreLossKind.allCases.map { ($0.rawValue, losses[$0]) })
        }
    }
}
