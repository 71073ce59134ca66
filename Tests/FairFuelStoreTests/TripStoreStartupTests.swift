import FairFuelCore
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
        let pageSize = 4_096
        let pages = try #require(SQLiteDatabaseFiles.size(of: path)) / Int64(pageSize)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        var random = SeededGenerator(seed: 5)
        for page in stride(from: Int64(pages / 2), to: pages, by: 2) {
            try handle.seek(toOffset: UInt64(page) * UInt64(pageSize) + 100)
            handle.write(Data((0..<512).map { _ in UInt8.random(in: 0...255, using: &random) }))
        }
        try handle.close()
        let corruptBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = LogCollector()
        let (store, report) = try TripStore.openCheckingIntegrity(
            path: path, configuration: StoreConfiguration(log: log.sink), wallClockUTCMs: Self.wallClock)
        #expect(report.movedAsidePath == path + ".corrupt-20261121T083500Z")
        #expect(!report.problems.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt-20261121T083500Z")) == corruptBytes)
        #expect(try store.sessions().isEmpty)
        #expect(try store.events(kind: "store_recovered").count == 1)
        #expect(log.entries.contains { $0.0 == .error && $0.1.contains("corrupt") && $0.1.contains(".corrupt-20261121T083500Z") })
        #expect(try store.checkIntegrity(full: true) == [])
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
