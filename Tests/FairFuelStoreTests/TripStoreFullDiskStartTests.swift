import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing
import TestSupport

/// The service starts on a file system already full to the last byte (a real tmpfs; mounting
/// needs root, skipped otherwise): SQLite cannot even create its `-shm` index there, so the
/// store first spends its reserve, else keeps the index in memory; it reads, refuses writes
/// cleanly, and takes them again, shared with other readers, once there is room.
@Suite(.serialized, .tags(.integration)) struct TripStoreFullDiskStartTests {
    static let t0: Int64 = 1_795_000_000_000

    /// A store with Alice and one trip, closed (SQLite removes its WAL and index), on a fresh tmpfs.
    static func closedStore(reserveBytes: Int64) throws -> (SmallFileSystem, String, StoreConfiguration, LogCollector) {
        let fs = try SmallFileSystem(megabytes: 6)
        let path = fs.directory + "/fairfuel.db"
        let log = LogCollector()
        let configuration = StoreConfiguration(retention: RetentionPolicy(diskReserveBytes: reserveBytes), log: log.sink)
        do {
            let store = try TripStore(path: path, configuration: configuration)
            let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
            _ = try SyntheticTrip(seed: 1, startUTCMs: t0, count: 600).record(in: store, driver: alice, name: "Alice", run: try store.beginRun(note: "t"))
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"), "the store was not closed")
        return (fs, path, configuration, log)
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root)"))
    func withNoReserveTheIndexIsKeptInMemoryAndWritesWaitForRoom() throws {
        let (fs, path, configuration, log) = try Self.closedStore(reserveBytes: 0)
        defer { fs.unmount() }
        let filler = fs.fill()
        #expect(fs.freeBytes == 0)

        let (store, report) = try TripStore.openCheckingIntegrity(path: path, configuration: configuration, wallClockUTCMs: Self.t0)
        #expect(report.diskFull && report.walIndexInMemory && report.movedAsidePath == nil)
        #expect(store.walIndexIsPrivate)
        #expect(log.entries.contains { $0.0 == .error && $0.1.contains("is full at start-up") })
        #expect(try store.directory().drivers.map(\.name) == ["Alice"])
        #expect(try store.sessions().count == 1)
        #expect(throws: StoreError.diskFull(path: path, operation: "write")) { _ = try store.beginRun(note: "service") }
        #expect(!store.hasRoomToShareIndex)

        // Room again: the write goes in, and after reopening other processes read the store too.
        try FileManager.default.removeItem(atPath: filler)
        let run = try store.beginRun(note: "service")
        #expect(store.hasRoomToShareIndex)
        try store.reopen()
        #expect(!store.walIndexIsPrivate)
        let alice = try #require(try store.directory().drivers.first?.id)
        _ = try SyntheticTrip(seed: 2, startUTCMs: Self.t0 + 86_400_000, count: 300).record(in: store, driver: alice, name: "Alice", run: run)
        let reader = try TripStore(path: path, readOnly: true)
        #expect(try reader.sessions().count == 2)
        #expect(try store.checkIntegrity(full: true) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fs.directory).allSatisfy { !$0.contains("corrupt") })
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root)"))
    func withAReserveStartUpSpendsIt() throws {
        let (fs, path, configuration, log) = try Self.closedStore(reserveBytes: 512 * 1024)
        defer { fs.unmount() }
        #expect(FileManager.default.fileExists(atPath: path + "-reserve"))
        fs.fill()
        let (store, report) = try TripStore.openCheckingIntegrity(path: path, configuration: configuration, wallClockUTCMs: Self.t0)
        #expect(report.diskFull && !report.walIndexInMemory)
        #expect(!store.walIndexIsPrivate)
        #expect(!FileManager.default.fileExists(atPath: path + "-reserve"))
        #expect(log.entries.contains { $0.1.contains("released the") })
        #expect(try store.sessions().count == 1)
        _ = try store.beginRun(note: "service")
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root)"))
    func aStoreThatNeedsAnUpgradeOnAFullDiskIsRefusedSayingWhy() throws {
        let fs = try SmallFileSystem(megabytes: 6)
        defer { fs.unmount() }
        let path = fs.directory + "/fairfuel.db"
        do {
            // A store from a build that knew the first migrations only.
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA journal_mode = WAL")
            try Migrator(Array(StoreSchema.migrations.prefix(3))).migrate(connection)
        }
        fs.fill()
        let configuration = StoreConfiguration(retention: RetentionPolicy(diskReserveBytes: 0))
        #expect {
            _ = try TripStore.openCheckingIntegrity(path: path, configuration: configuration, wallClockUTCMs: Self.t0)
        } throws: { error in
            "\(error)".contains("is full and the store needs") && "\(error)".contains("free some space")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fs.directory).allSatisfy { !$0.contains("corrupt") })
    }
}
