import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelSQLite
import FairFuelService
import FairFuelServiceCore
import FairFuelSimulation
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// One pipeline: the live service and a replay of what it read build their core the same way
/// (`ServiceAssembly`) and hand it the same times, so a capture replayed stores what the service
/// stored while it was recorded.
@Suite(.tags(.replay)) struct LiveAndReplayStoreTests {
    static let familyWeek = PackagePaths.root + "/scenarios/family-week.scenario"

    /// Every table of the store but the run log (`runs`: a run's note and capture fingerprint
    /// say how it ran). A table added to the store must be added here.
    static let comparedTables = [
        "calibrations", "consumption_fit_factors", "consumption_fits", "driver_beacons", "driver_tags", "drivers", "events",
        "fleet_commands_applied", "outbox", "outbox_counters", "outbox_revisions", "pairing", "refuel_receipts", "refuel_shares",
        "refuels", "schema_migrations", "sessions", "store_losses", "track_chunks", "untracked_driving", "vehicle",
        "web_users",
    ].sorted()

    @Test("the family week through the live service and replayed from its capture gives the same store, table by table")
    func liveAndReplayedWeekStoreTheSame() throws {
        // Two stores of the week's size, written durably: on tmpfs where there is one, as the
        // comparison is of their rows, not of the disk.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        let directory = base + "fairfuel-one-pipeline-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let capturePath = directory + "/week.ffcap"
        let livePath = directory + "/live.db", replayedPath = directory + "/replayed.db"

        // One provisioned store, copied: both start from the same file (the car's own ids included).
        let plan = try SimPlanner.plan(try SimScenarioParser.load(path: Self.familyWeek))
        try LiveServiceRig.provision(try TripStore(path: livePath), for: plan)
        try FileManager.default.copyItem(atPath: livePath, toPath: replayedPath)

        // (b) The live path: the runtime's assembly in lock-step with the virtual MCU, five
        // parked minutes after the scenario as the demo runs it; the capture is what it read.
        var live = try LiveServiceRig(plan: plan, store: try TripStore(path: livePath), capturePath: capturePath)
        try live.run(until: plan.endMs + 300_000)

        // (a) The replay path: `fairfuel replay` of that capture.
        let report = try Replay(capturePath: capturePath, store: try TripStore(path: replayedPath)).run()
        #expect(report.sessionsStarted == live.assembly.recorder.sessionsStarted)

        let liveRows = try StoreDump.rows(ofStoreAt: directory + "/live.db")
        let replayedRows = try StoreDump.rows(ofStoreAt: directory + "/replayed.db")
        #expect(liveRows.keys.sorted() == (Self.comparedTables + ["runs"]).sorted())
        for table in Self.comparedTables {
            let mine = liveRows[table] ?? [], theirs = replayedRows[table] ?? []
            let first = mine.indices.first { $0 >= theirs.count || mine[$0] != theirs[$0] }
            #expect(mine == theirs, """
                \(table): \(mine.count) row(s) live, \(theirs.count) replayed; first difference at row \(first.map(String.init) ?? "end"):
                live     \(first.map { mine[$0] } ?? "-")
                replayed \(first.map { theirs[$0] } ?? "-")
                """)
        }
        // Not two empty stores: the week's trips, their tracks and the noise bursts' link errors.
        #expect(liveRows["sessions"]?.count ?? 0 >= 20)
        #expect(liveRows["track_chunks"]?.count ?? 0 > 100)
        #expect(liveRows["events"]?.contains { $0.contains("link_errors") } == true)
    }

}

/// The runtime and the replay build their core with one `ServiceAssembly`: what the board says reaches both.
@Suite struct ServiceAssemblyTests {
    @Test("a board setting reaches the runtime's core and the replay's alike: with gpsd as the GNSS source both leave the MCU's NMEA unused")
    func boardSettingsReachRuntimeAndReplay() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-one-builder-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let capture = PackagePaths.root + "/samples/drive-20s.ffcap"
        var gpsd = BoardProfile.piZero2W
        gpsd.gnss.source = .gpsd
        for (name, board) in [("mcu", BoardProfile.piZero2W), ("gpsd", gpsd)] {
            // The runtime's core, handed the capture's reads as its loop hands it the port's.
            // Alice and her tag and beacon, as the sample capture's drive knows them.
            let runtimeStore = directory + "/runtime-\(name).db", replayStore = directory + "/replay-\(name).db"
            for path in [runtimeStore, replayStore] {
                _ = try TripStore(path: path).addDriver(
                    name: "Alice", tags: [.driver(try #require(UUID128("3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8")))],
                    beacons: [try BeaconIdentity(spec: "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0")])
            }
            let runtime = try ServiceRuntime(options: .init(
                board: board, storePath: runtimeStore, port: directory + "/no-mcu", controlSocketPath: nil,
                logger: Logger(minimumLevel: .error, style: .plain, sink: { _ in })))
            var runtimePoints = 0
            try CaptureReading(path: capture, direction: .rx).forEachRead { timeMs, bytes in
                runtime.core.received(bytes, at: LinkMilliseconds(Int64(timeMs))) { action in
                    if case .record(.tripPoint) = action { runtimePoints += 1 }
                }
            }
            let replay = try Replay(capturePath: capture, store: try TripStore(path: replayStore), board: board).run()
            #expect(runtime.core.settings.gnssFromGPSD == (name == "gpsd"))
            if name == "gpsd" {
                #expect(runtimePoints == 0 && replay.pointsWritten == 0, "\(runtimePoints) \(replay.pointsWritten)")
            } else {
                #expect(runtimePoints > 10 && replay.pointsWritten == runtimePoints, "\(runtimePoints) \(replay.pointsWritten)")
            }
        }
    }
}

/// A store file's rows, table by table, for comparing two stores byte for byte.
enum StoreDump {
    /// Each table's rows in primary-key order (rowid without one), each row its values as stored
    /// (integer, real to the last bit, text, blob, null), `sqlite_` tables aside.
    static func rows(ofStoreAt path: String) throws -> [String: [String]] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            $0.text(0) ?? ""
        }
        var rows: [String: [String]] = [:]
        for table in tables {
            let columns = try connection.query("SELECT name, pk FROM pragma_table_info(?1)", .text(table)) {
                (name: $0.text(0) ?? "", pk: $0.int(1))
            }
            let key = columns.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map { "\"\($0.name)\"" }
            let sql = "SELECT " + columns.map { "\"\($0.name)\"" }.joined(separator: ", ") + " FROM \"\(table)\" ORDER BY "
                + (key.isEmpty ? "rowid" : key.joined(separator: ", "))
            rows[table] = try connection.query(sql) { row in
                (0..<Int32(columns.count)).map { "\(row.value($0))" }.joined(separator: " | ")
            }
        }
        return rows
    }
}
