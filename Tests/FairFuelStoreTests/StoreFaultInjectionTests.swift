import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing
import TestSupport

/// The drive a killed writer replays: cycle `c` is six simulated hours of a family's trips,
/// written as the service's recorder writes them (batches every 10 s or 100 points,
/// sessions opened and closed durably), with refuels and events in between.
enum FaultDrive {
    static let t0: Int64 = 1_795_000_000_000
    static let cycleMs: Int64 = 6 * 3_600_000
    static let sessionsPerCycle = 40
    static let flushPoints = 100
    static let flushIntervalMs: Int64 = 10_000
    /// SyntheticTrip's points are 1 s apart, sometimes 2 s.
    static let longestPointStepMs: Int64 = 2_000
    static let drivers = ["Alice", "Bob", "Chloe"]
    /// A small budget and a two-day age limit, so that checkpoints and thinning happen under fire too.
    static let retention = RetentionPolicy(diskBudgetBytes: 4 << 20, tripPointMaxAgeDays: 2)

    static func cycleStart(_ cycle: Int) -> Int64 { t0 + Int64(cycle) * cycleMs }

    static func trip(cycle: Int, session k: Int) -> SyntheticTrip {
        let seed = UInt64(cycle) << 16 | UInt64(k)
        var random = SeededGenerator(seed: seed ^ 0x5EED)
        return SyntheticTrip(
            seed: seed, startUTCMs: cycleStart(cycle) + Int64(k) * 480_000, count: Int.random(in: 20..<220, using: &random))
    }

    /// The session's link start, which names its (cycle, session) in the store.
    static func startLinkMs(cycle: Int, session k: Int) -> Int64 { Int64(cycle) * 1_000 + Int64(k) }

    static func hasRefuel(after k: Int) -> Bool { k % 7 == 6 }
}

/// What one writer process announced before it was killed. Lines, each written with one
/// `write(2)` after the step it names returned: `R` ready, `O k id` session opened,
/// `P k i` point i generated (before it is buffered), `C k i` points up to i committed,
/// `E k` session closed, `F k id` refuel stored, `D` drive done, `X message` failure.
struct FaultCycleLog {
    var ready = false
    var done = false
    var failure: String?
    var opened: [Int: Int64] = [:]
    var lastPoint: [Int: Int] = [:]
    var lastCommitted: [Int: Int] = [:]
    var ended: Set<Int> = []
    var refuels: [Int: Int64] = [:]

    init(text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first else { continue }
            let numbers = fields.dropFirst().compactMap { Int64($0) }
            switch kind {
            case "R": ready = true
            case "D": done = true
            case "X": failure = String(line.dropFirst(2))
            case "O" where numbers.count == 2: opened[Int(numbers[0])] = numbers[1]
            case "P" where numbers.count == 2: lastPoint[Int(numbers[0])] = Int(numbers[1])
            case "C" where numbers.count == 2: lastCommitted[Int(numbers[0])] = Int(numbers[1])
            case "E" where numbers.count == 1: ended.insert(Int(numbers[0]))
            case "F" where numbers.count == 2: refuels[Int(numbers[0])] = numbers[1]
            default: break
            }
        }
    }
}

/// The writer: runs only as a child process of `StoreFaultInjectionTests`, which kills it.
@Suite struct StoreFaultWriterProcess {
    static let environment: (db: String, progress: String, cycle: Int)? = {
        let variables = ProcessInfo.processInfo.environment
        guard let db = variables["FAIRFUEL_FAULT_DB"], let progress = variables["FAIRFUEL_FAULT_PROGRESS"],
              let cycle = variables["FAIRFUEL_FAULT_CYCLE"].flatMap(Int.init) else { return nil }
        return (db, progress, cycle)
    }()

    @Test(.enabled(if: environment != nil, "runs only as the writer process of StoreFaultInjectionTests"))
    func writeUntilKilled() throws {
        let (db, progressPath, cycle) = try #require(Self.environment)
        let progress = open(progressPath, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        defer { close(progress) }
        func say(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(progress, $0.baseAddress, $0.count) }
        }
        do {
            // Unsynced writes stay in this process: the SIGKILL is a power cut.
            let vfs = try SQLiteCountingVFS.register(name: "fault-writer-\(getpid())")
            vfs.setHoldsUnsyncedWrites(true)
            let configuration = StoreConfiguration(retention: FaultDrive.retention, vfs: .named(vfs.name))
            let (store, _) = try TripStore.openCheckingIntegrity(path: db, configuration: configuration, wallClockUTCMs: nil)
            try store.endSessionsLeftOpen()
            try store.enforceRetention(nowUTCMs: FaultDrive.cycleStart(cycle))
            var drivers: [DriverID] = []
            for name in FaultDrive.drivers {
                drivers.append(try store.driverID(named: name) ?? store.addDriver(name: name, tags: [], beacons: []))
            }
            let run = try store.beginRun(note: "fault cycle \(cycle)")
            say("R")
            var buffer: [StoredTripPoint] = []
            buffer.reserveCapacity(FaultDrive.flushPoints)
            for k in 0..<FaultDrive.sessionsPerCycle {
                let trip = FaultDrive.trip(cycle: cycle, session: k)
                let driver = drivers[k % drivers.count]
                let id = try store.openSession(
                    driver: driver, driverName: FaultDrive.drivers[k % drivers.count], run: run,
                    startLinkMs: FaultDrive.startLinkMs(cycle: cycle, session: k), startUTCMs: trip.startUTCMs)
                say("O \(k) \(id.rawValue)")
                var lastFlushAt: Int64?
                for (index, generated) in trip.points.enumerated() {
                    var point = generated
                    point.session = id
                    say("P \(k) \(index)")
                    buffer.append(point)
                    if lastFlushAt == nil { lastFlushAt = point.utcMs }
                    if buffer.count >= FaultDrive.flushPoints || point.utcMs - lastFlushAt! >= FaultDrive.flushIntervalMs {
                        try store.appendTripPoints(buffer)
                        say("C \(k) \(index)")
                        buffer.removeAll(keepingCapacity: true)
                        lastFlushAt = point.utcMs
                    }
                }
                if !buffer.isEmpty {
                    try store.appendTripPoints(buffer)
                    say("C \(k) \(trip.points.count - 1)")
                    buffer.removeAll(keepingCapacity: true)
                }
                let start = trip.startUTCMs
                try store.closeSession(id, record: trip.record(driver: driver), utc: { start + $0.value })
                say("E \(k)")
                if FaultDrive.hasRefuel(after: k) {
                    let refuel = try store.addRefuel(RefuelInput(atUTCMs: trip.endUTCMs + 60_000, liters: 30, cost: MinorUnits(6_000)))
                    say("F \(k) \(refuel)")
                }
                if k % 5 == 2 { try store.logEvent(kind: "unknown_tag", detail: "04:A2:2B:7A", utcMs: trip.endUTCMs) }
            }
            say("D")
        } catch {
            say("X \(error)")
            throw error
        }
    }
}

@Suite struct StoreFaultInjectionTests {
    static let kills = 220

    /// Kills the writer with SIGKILL 220 times, at random moments of a simulated drive (one kill
    /// in five during start-up: recovery, power-loss closing, retention), holding every unsynced
    /// write in the writer's memory so that each kill is a power cut. After each: integrity_check
    /// is ok, every acknowledged commit is there, and at most the flush window was lost.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "re-runs its own binary through /proc (Linux)"))
    func killedWriterLosesAtMostTheFlushWindow() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-fault-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/store.db"
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var random = SeededGenerator(seed: 2026)
        var logs: [FaultCycleLog] = []
        var statistics = FaultStatistics()
        let clock = ContinuousClock()
        let started = clock.now
        var cycle = 0
        while statistics.kills < Self.kills {
            let progress = directory + "/cycle-\(cycle).log"
            FileManager.default.createFile(atPath: progress, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "StoreFaultWriterProcess"]
            var environment = ProcessInfo.processInfo.environment
            environment["FAIRFUEL_FAULT_DB"] = db
            environment["FAIRFUEL_FAULT_PROGRESS"] = progress
            environment["FAIRFUEL_FAULT_CYCLE"] = String(cycle)
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let duringStartup = cycle % 5 == 4
            if duringStartup {
                usleep(UInt32.random(in: 0..<250_000, using: &random))
            } else {
                let deadline = clock.now + .seconds(60)
                while process.isRunning, clock.now < deadline, !FaultCycleLog(text: Self.read(progress)).ready { usleep(1_000) }
                usleep(UInt32.random(in: 0..<150_000, using: &random))
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if process.terminationReason == .uncaughtSignal {
                    statistics.kills += 1
                    if duringStartup { statistics.killsDuringStartup += 1 }
                }
            } else {
                process.waitUntilExit()
            }
            let log = FaultCycleLog(text: Self.read(progress))
            try #require(log.failure == nil, "writer of cycle \(cycle) failed: \(log.failure ?? "")")
            try #require(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0)
            logs.append(log)
            let reader = try TripStore(path: db, readOnly: true)
            #expect(try reader.checkIntegrity(full: true) == [], "integrity_check after kill \(statistics.kills)")
            try Self.check(cycle: cycle, log: log, in: reader, statistics: &statistics, closedByLaterStartup: false)
            if cycle % 25 == 24 { try Self.checkAll(logs: logs, in: reader, statistics: &statistics, allClosed: false) }
            cycle += 1
            try #require(clock.now - started < .seconds(600), "the fault-injection loop is far slower than expected")
        }
        // The restart after the last kill: recovery, then every session closed and intact.
        let (store, startup) = try TripStore.openCheckingIntegrity(path: db, wallClockUTCMs: nil)
        #expect(startup.movedAsidePath == nil)
        try store.endSessionsLeftOpen()
        #expect(try store.checkIntegrity(full: true) == [])
        try Self.checkAll(logs: logs, in: store, statistics: &statistics, allClosed: true)
        #expect(try store.sessions().allSatisfy { $0.endReason != nil })
        let elapsed = clock.now - started
        print("""
            fault injection: \(statistics.kills) SIGKILLs (\(statistics.killsDuringStartup) during start-up) in \(cycle) runs, \
            \(elapsed.components.seconds) s; \(statistics.sessionsChecked) session checks, \(statistics.pointsChecked) points compared; \
            integrity_check ok every time; lost at most \(statistics.maximumLostPoints) points / \(statistics.maximumLostMs) ms \
            (window \(FaultDrive.flushIntervalMs) ms / \(FaultDrive.flushPoints) points); \
            \(statistics.thinnedSessions) thinned tracks checked
            """)
        #expect(statistics.kills >= 200)
        // The flush window, plus the point being generated when the kill came (README, "The store").
        #expect(statistics.maximumLostMs <= FaultDrive.flushIntervalMs + 2_000)
    }

    struct FaultStatistics {
        var kills = 0
        var killsDuringStartup = 0
        var sessionsChecked = 0
        var pointsChecked = 0
        var maximumLostPoints = 0
        var maximumLostMs: Int64 = 0
        var thinnedSessions = 0
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Checks every session of `cycle` against what its writer announced.
    static func check(cycle: Int, log: FaultCycleLog, in store: TripStore, statistics: inout FaultStatistics, closedByLaterStartup: Bool) throws {
        let rows = try store.connection.query(
            "SELECT id, start_link_ms, end_reason, distance_m, fuel_l, end_utc_ms, track_level FROM sessions WHERE start_link_ms BETWEEN ? AND ? ORDER BY start_link_ms",
            .integer(Int64(cycle) * 1_000), .integer(Int64(cycle) * 1_000 + 999)
        ) { row in
            (id: row.int64(0), k: Int(row.int64(1) % 1_000), reason: row.text(2), distance: row.double(3), fuel: row.double(4),
             end: row.optionalInt64(5), level: row.int(6))
        }
        let announced = log.opened.keys.max() ?? -1
        for (k, id) in log.opened {
            #expect(rows.contains { $0.k == k && $0.id == id }, "cycle \(cycle): session \(k) (id \(id)) was acknowledged but is missing")
        }
        for (k, refuel) in log.refuels {
            #expect(try store.connection.scalarInt("SELECT COUNT(*) FROM refuels WHERE id = ?", .integer(refuel)) == 1,
                    "cycle \(cycle): refuel after session \(k) was acknowledged but is missing")
        }
        for row in rows {
            let session = SessionID(row.id)
            let expected = FaultDrive.trip(cycle: cycle, session: row.k).points
            let stored = try store.tripPoints(session: session)
            statistics.sessionsChecked += 1
            statistics.pointsChecked += stored.count
            #expect(row.k <= announced + 1, "cycle \(cycle): session \(row.k) exists but \(announced) was the last announced")
            if log.opened[row.k] == nil {
                #expect(stored.isEmpty, "cycle \(cycle): an unacknowledged session has points")
            }
            if row.level > 0 {
                // Thinned by a later start-up: a subset of what was written, ends kept.
                statistics.thinnedSessions += 1
                let byTime = Dictionary(expected.map { ($0.utcMs, $0) }, uniquingKeysWith: { a, _ in a })
                #expect(stored.allSatisfy { byTime[$0.utcMs].map(quantized) == quantized($0) }, "cycle \(cycle) session \(row.k): thinned track is not a subset")
                if let first = stored.first { #expect(quantized(first) == quantized(expected[0])) }
                continue
            }
            let prefix = Array(expected.prefix(stored.count))
            #expect(stored.map(quantized) == prefix.map(quantized), "cycle \(cycle) session \(row.k): stored points are not the generated ones")
            let count = stored.count
            if row.reason == SessionEndReason.departed.rawValue {
                #expect(count == expected.count, "cycle \(cycle) session \(row.k): closed with \(count) of \(expected.count) points")
                #expect(row.distance == expected.last?.distanceMeters)
                continue
            }
            #expect(!log.ended.contains(row.k), "cycle \(cycle) session \(row.k): acknowledged close is missing")
            #expect(count >= (log.lastCommitted[row.k] ?? -1) + 1, "cycle \(cycle) session \(row.k): an acknowledged batch is missing")
            let generated = (log.lastPoint[row.k] ?? -1) + 1
            #expect(count <= generated)
            if count < generated {
                let lostMs = expected[generated - 1].utcMs - expected[count].utcMs
                statistics.maximumLostPoints = max(statistics.maximumLostPoints, generated - count)
                statistics.maximumLostMs = max(statistics.maximumLostMs, lostMs)
                // The flush window, plus the point in hand when the kill came (logged as
                // generated before it reached the buffer; points are 1 or 2 s apart).
                #expect(lostMs <= FaultDrive.flushIntervalMs + FaultDrive.longestPointStepMs, "cycle \(cycle) session \(row.k): lost \(lostMs) ms of points")
                #expect(generated - count <= FaultDrive.flushPoints)
            }
            if row.reason == SessionEndReason.powerLoss.rawValue {
                #expect(row.end == stored.last?.utcMs ?? FaultDrive.trip(cycle: cycle, session: row.k).startUTCMs)
                #expect(row.distance == stored.last?.distanceMeters ?? 0)
            } else {
                #expect(!closedByLaterStartup, "cycle \(cycle) session \(row.k) is still open after a later start-up")
            }
        }
    }

    /// Checks every cycle so far; a session must be closed once a later writer got through start-up
    /// (or, with `allClosed`, after the final restart).
    static func checkAll(logs: [FaultCycleLog], in store: TripStore, statistics: inout FaultStatistics, allClosed: Bool) throws {
        for (cycle, log) in logs.enumerated() {
            let closed = allClosed || logs[(cycle + 1)...].contains { $0.ready }
            try check(cycle: cycle, log: log, in: store, statistics: &statistics, closedByLaterStartup: closed)
        }
    }
}
