import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Synchronization
import Testing
import TestSupport

/// Collects what the store logs.
final class LogCollector: Sendable {
    private let lines = Mutex<[(StoreLogLevel, String)]>([])
    var entries: [(StoreLogLevel, String)] { lines.withLock { $0 } }
    var sink: @Sendable (StoreLogLevel, String) -> Void { { level, text in self.lines.withLock { $0.append((level, text)) } } }
}

@Suite struct TripStoreStartupTests {
    static let wallClock: Int64 = 1_795_250_100_000  // 2026-11-21T08:35:00Z

    static func storeWithATrip(_ path: String) throws {
        let store = try TripStore(path: path)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try SyntheticTrip(seed: 1, startUTCMs: 1_795_000_000_000, count: 3_000).record(in: store, driver: alice, name: "Alice", run: try store.beginRun(note: "t"))
        try store.connection.checkpoint(.truncate)
    }

    /// Noise over every other page of the file's second half that holds track chunks; the file's bytes after.
    /// Only the track table's pages: the schema's pages lie among them too, and noise on one of those
    /// hit content or free space by the luck of how long the schema's rows were.
    static func overwriteEveryOtherPageOfTheSecondHalf(_ path: String) throws -> Data {
        let pageSize = 4_096
        let pages = try #require(SQLiteDatabaseFiles.size(of: path)) / Int64(pageSize)
        let trackPages = Set(try SQLiteConnection(path: path, mode: .readOnly).query(
            "SELECT pageno FROM dbstat WHERE name = 'track_chunks'") { $0.int64(0) })
        #expect(trackPages.count > 4, "the trip's track fills pages to damage")
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        var random = SeededGenerator(seed: 5)
        for page in stride(from: Int64(pages / 2), to: pages, by: 2) {
            let noise = Data((0..<512).map { _ in UInt8.random(in: 0...255, using: &random) })
            guard trackPages.contains(page + 1) else { continue }  // page numbers start at 1
            try handle.seek(toOffset: UInt64(page) * UInt64(pageSize) + 100)
            handle.write(noise)
        }
        try handle.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func aSoundStoreOpensAsItIs() throws {
        let path = temporaryStorePath()
        try Self.storeWithATrip(path)
        let (store, report) = try TripStore.openCheckingIntegrity(path: path, wallClockUTCMs: Self.wallClock)
        #expect(report == StoreStartupReport())
        #expect(try store.sessions().count == 1)
        let (_, fresh) = try TripStore.openCheckingIntegrity(path: temporaryStorePath(), wallClockUTCMs: nil)
        #expect(fresh.created && fresh.movedAsidePath == nil)
    }

    /// A page of the track table overwritten with noise: quick_check notices, the file and its
    /// bytes are kept under a timestamped name, a fresh store takes its place and says so.
    @Test func aCorruptStoreIsMovedAsideAndAFreshOneCreated() throws {
        let path = temporaryStorePath()
        try Self.storeWithATrip(path)
        let corruptBytes = try Self.overwriteEveryOtherPageOfTheSecondHalf(path)
        let log = LogCollector()
        let (store, report) = try TripStore.openCheckingIntegrity(
            path: path, configuration: StoreConfiguration(log: log.sink), wallClockUTCMs: Self.wallClock)
        #expect(report.movedAsidePath == path + ".corrupt-20261121T083500Z")
        #expect(!report.problems.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt-20261121T083500Z")) == corruptBytes)
        #expect(report.salvage?.rows["drivers"] == 1, "\(String(describing: report.salvage))")
        #expect(try store.events(kind: "store_recovered").count == 1)
        #expect(log.entries.contains { $0.0 == .error && $0.1.contains("corrupt") && $0.1.contains(".corrupt-20261121T083500Z") })
        #expect(try store.checkIntegrity(full: true) == [])
    }

    /// The same damage: what still reads comes over to the new store, first the car and its
    /// drivers (without whom every later drive would be untracked), then the books; the moved
    /// file is not touched, and the new store is sound.
    @Test func whatStillReadsOfACorruptStoreIsSalvaged() throws {
        let path = temporaryStorePath()
        try Self.storeWithATrip(path)
        do {
            let store = try TripStore(path: path)
            var vehicle = try store.vehicle()
            vehicle.name = "Golf"
            vehicle.tankLiters = 50
            try store.setVehicle(vehicle)
            _ = try store.addDriver(name: "Ben", tags: [.uid(try TagUID(parsing: "04:a2:2b:7a"))], beacons: [])
            try store.addRefuel(RefuelInput(atUTCMs: 1_794_990_000_000, liters: 40, cost: MinorUnits(7_000)))
            try store.addRefuel(RefuelInput(atUTCMs: 1_795_100_000_000, liters: 20, cost: MinorUnits(3_600)))
            try store.connection.checkpoint(.truncate)
        }
        let before = try TripStore(path: path, readOnly: true)
        let (uid, sessions, splits) = (
            try before.connection.scalarText("SELECT uid FROM vehicle"), try before.sessions().count, try before.splits().count)
        let corruptBytes = try Self.overwriteEveryOtherPageOfTheSecondHalf(path)
        let log = LogCollector()
        let (store, report) = try TripStore.openCheckingIntegrity(
            path: path, configuration: StoreConfiguration(log: log.sink), wallClockUTCMs: Self.wallClock)
        let moved = try #require(report.movedAsidePath)
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == corruptBytes, "the moved file is evidence: never changed")
        let salvage = try #require(report.salvage)
        #expect(try store.drivers().map(\.name) == ["Alice", "Ben"])
        #expect(try store.drivers().last?.tags == [.uid(try TagUID(parsing: "04:a2:2b:7a"))])
        #expect(try store.vehicle().name == "Golf" && store.vehicle().tankLiters == 50)
        #expect(try store.connection.scalarText("SELECT uid FROM vehicle") == uid, "the car keeps its identity")
        #expect(try store.refuels().count == 2)
        #expect(try store.sessions().count == sessions)
        #expect(try store.splits().count == splits)
        #expect(salvage.damaged.contains("track_chunks"), "\(salvage)")
        #expect(log.entries.contains { $0.0 == .error && $0.1.contains("salvaged from \(moved): 1 vehicle, 2 drivers, 1 driver_tags") })
        #expect(try store.checkIntegrity(full: true) == [])
        #expect(try store.connection.query("PRAGMA foreign_key_check") { $0.text(0) ?? "" }.isEmpty)
        // New trips and refuels carry on after the salvaged ids.
        let next = try store.addRefuel(RefuelInput(atUTCMs: 1_795_200_000_000, liters: 10, cost: MinorUnits(1_800)))
        #expect(next == 3)
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideTooAndNamesDoNotCollide() throws {
        let path = temporaryStorePath()
        for _ in 0..<2 {
            try Data("this is not an SQLite file, but it could be someone's data".utf8).write(to: URL(fileURLWithPath: path))
            let (_, report) = try TripStore.openCheckingIntegrity(path: path, wallClockUTCMs: Self.wallClock)
            #expect(report.movedAsidePath != nil)
        }
        #expect(FileManager.default.fileExists(atPath: path + ".corrupt-20261121T083500Z"))
        #expect(FileManager.default.fileExists(atPath: path + ".corrupt-20261121T083500Z-2"))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: path))
        let (_, unknownTime) = try TripStore.openCheckingIntegrity(path: path, wallClockUTCMs: nil)
        #expect(unknownTime.movedAsidePath == path + ".corrupt-unknown-time")
    }

    @Test func aStoreFromANewerBuildIsRefusedAndLeftAlone() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        try store.connection.run("INSERT INTO schema_migrations (name, applied_order) VALUES ('2099-01-01-future', 99)")
        #expect(throws: StoreError.newerSchema(path: path, unknownMigrations: ["2099-01-01-future"])) {
            _ = try TripStore.openCheckingIntegrity(path: path, wallClockUTCMs: Self.wallClock)
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".corrupt-20261121T083500Z"))
    }
}
