import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing
import TestSupport

/// The books a killed corrector works on: 60 trips of Alice's and Bob's with their tracks, a
/// refuel inside every fourth trip (so that a re-split decodes tracks), and the baseline fill.
enum BookFaultBooks {
    static let t0 = TripStoreSplitTests.t0
    static let trips = 60
    static let range: [TripReference] = (1...Int64(trips)).map { .session($0) }

    static func build(at path: String) throws {
        let store = try TripStore(path: path)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        let run = try store.beginRun(note: "book fault")
        try store.addRefuel(RefuelInput(atUTCMs: t0 - 3_600_000, liters: 40, cost: MinorUnits(7_000)))
        for k in 0..<trips {
            let trip = SyntheticTrip(seed: UInt64(k) + 77, startUTCMs: t0 + Int64(k) * 1_200_000, count: 400)
            let driver = k % 2 == 0 ? alice : bob
            try trip.record(in: store, driver: driver, name: k % 2 == 0 ? "Alice" : "Bob", run: run)
            if k % 4 == 3 {
                // In the middle of the trip: the re-split cuts its track there.
                let middle = trip.points[trip.points.count / 2].utcMs
                try store.addRefuel(RefuelInput(atUTCMs: middle, liters: 20, cost: MinorUnits(3_001 + Int64(k))))
            }
        }
        try store.addRefuel(RefuelInput(atUTCMs: t0 + Int64(trips + 1) * 1_200_000, liters: 20, cost: MinorUnits(3_333)))
        _ = try store.assignTrips(range, to: alice)
    }

    /// The driver the child gives the range at step `n`: Bob, Alice, Bob, ...
    static func driverName(step n: Int) -> String { n % 2 == 0 ? "Bob" : "Alice" }
}

/// The corrector: runs only as a child process of `TripStoreBookFaultTests`, which kills it.
/// It announces `R` once open, `B n` before step n and `A n` once step n committed.
@Suite struct BookFaultWriterProcess {
    static let environment: (db: String, progress: String)? = {
        let variables = ProcessInfo.processInfo.environment
        guard let db = variables["FAIRFUEL_BOOK_FAULT_DB"], let progress = variables["FAIRFUEL_BOOK_FAULT_PROGRESS"] else { return nil }
        return (db, progress)
    }()

    @Test(.enabled(if: environment != nil, "runs only as the corrector process of TripStoreBookFaultTests"))
    func correctUntilKilled() throws {
        let (db, progressPath) = try #require(Self.environment)
        let progress = open(progressPath, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        defer { close(progress) }
        func say(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(progress, $0.baseAddress, $0.count) }
        }
        // Unsynced writes stay in this process: the SIGKILL is a power cut.
        let vfs = try SQLiteCountingVFS.register(name: "book-fault-\(getpid())")
        vfs.setHoldsUnsyncedWrites(true)
        let store = try TripStore(path: db, configuration: StoreConfiguration(vfs: .named(vfs.name)))
        let drivers = try store.drivers()
        say("R")
        for n in 0..<1_000 {
            let name = BookFaultBooks.driverName(step: n)
            say("B \(n)")
            _ = try store.assignTrips(BookFaultBooks.range, to: drivers.first { $0.name == name }!.id)
            say("A \(n)")
        }
    }
}

@Suite struct TripStoreBookFaultTests {
    static let kills = 16

    /// SIGKILLs a process re-splitting every bill (a range of trips given to Bob, then Alice, and
    /// so on), with unsynced writes held in the process so that each kill is a power cut. After
    /// each: integrity is ok, the range is all one driver's (the old books or the new, never a
    /// mix), no acknowledged step is lost, every bill adds up to the cent, and the stored shares
    /// are exactly what a fresh re-split gives.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "re-runs its own binary through /proc (Linux)"))
    func aKilledResplitLeavesTheOldOrTheNewBooks() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-book-fault-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/store.db"
        try BookFaultBooks.build(at: db)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var random = SeededGenerator(seed: 13)
        var killsMidTransaction = 0
        var steps = 0
        var lastName = "Alice"
        let clock = ContinuousClock()
        let started = clock.now
        for kill in 0..<Self.kills {
            let progress = directory + "/kill-\(kill).log"
            FileManager.default.createFile(atPath: progress, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "BookFaultWriterProcess"]
            var environment = ProcessInfo.processInfo.environment
            environment["FAIRFUEL_BOOK_FAULT_DB"] = db
            environment["FAIRFUEL_BOOK_FAULT_PROGRESS"] = progress
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = clock.now + .seconds(60)
            while process.isRunning, clock.now < deadline, !Self.read(progress).hasPrefix("R") { usleep(1_000) }
            usleep(UInt32.random(in: 20_000..<600_000, using: &random))
            try #require(process.isRunning, "the corrector stopped before it was killed: \(Self.read(progress))")
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let lines = Self.read(progress).split(separator: "\n")
            let acknowledged = lines.filter { $0.hasPrefix("A ") }.compactMap { Int($0.dropFirst(2)) }.max()
            let begun = lines.filter { $0.hasPrefix("B ") }.compactMap { Int($0.dropFirst(2)) }.max()
            if let begun, begun != acknowledged { killsMidTransaction += 1 }
            steps += (acknowledged ?? -1) + 1

            let store = try TripStore(path: db)
            #expect(try store.checkIntegrity(full: true) == [], "integrity after kill \(kill)")
            let names = Set(try store.sessions().map(\.driverName))
            #expect(names.count == 1, "kill \(kill): the range is a mix of \(names)")
            let name = try #require(names.first)
            // The old books (the last acknowledged step, or what the previous run left) or the new (the step under way).
            var allowed = [acknowledged.map(BookFaultBooks.driverName(step:)) ?? lastName]
            if let begun { allowed.append(BookFaultBooks.driverName(step: begun)) }
            #expect(allowed.contains(name), "kill \(kill): \(name), expected one of \(allowed)")
            try TripStoreBookTests.expectBooksAddUp(store)
            lastName = name
            // The next corrector starts from Bob again: put the books back to Alice's, as before the first.
            if name != "Alice" { _ = try store.assignTrips(BookFaultBooks.range, to: try store.driverID(named: "Alice")!) }
            lastName = "Alice"
        }
        let elapsed = clock.now - started
        print("book fault: \(Self.kills) SIGKILLs, \(killsMidTransaction) in the middle of a re-split, \(steps) re-splits committed, \(elapsed.components.seconds) s")
        #expect(killsMidTransaction >= Self.kills / 4, "too few kills landed inside a re-split to prove anything")
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
