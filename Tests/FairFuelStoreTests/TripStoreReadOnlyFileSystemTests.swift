import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing
import TestSupport

/// The store on a real small tmpfs (mounting needs root, skipped otherwise): remounted read-only,
/// readers still read it and the service's store waits, refusing writes by name, until it is
/// writable again; and on a disk smaller than the WAL allowance, the WAL and the reserve are
/// fitted to the disk.
@Suite(.serialized, .tags(.integration)) struct TripStoreReadOnlyFileSystemTests {
    static let t0: Int64 = 1_795_000_000_000

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root)"))
    func aReadOnlyStoreIsReadAndWaitsUntilItIsWritable() throws {
        let fs = try SmallFileSystem(megabytes: 6)
        defer { fs.unmount() }
        let path = fs.directory + "/fairfuel.db"
        do {
            // Closed: SQLite removes its WAL and index, which a read-only file system cannot make again.
            let store = try TripStore(path: path)
            let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
            _ = try SyntheticTrip(seed: 1, startUTCMs: Self.t0, count: 300).record(in: store, driver: alice, name: "Alice", run: try store.beginRun(note: "t"))
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        try #require(fs.remount(readOnly: true))

        let reader = try TripStore(path: path, readOnly: true)
        #expect(reader.readsImmutableFile)
        #expect(try reader.sessions().count == 1)
        #expect(try reader.checkIntegrity(full: true) == [])

        let log = LogCollector()
        let (store, report) = try TripStore.openCheckingIntegrity(path: path, configuration: StoreConfiguration(log: log.sink), wallClockUTCMs: Self.t0)
        #expect(report.readOnlyFileSystem && report.movedAsidePath == nil)
        #expect(store.waitsForWritableFileSystem)
        #expect(log.entries.contains { $0.0 == .error && $0.1.contains("is read-only") })
        #expect(try store.directory().drivers.map(\.name) == ["Alice"])
        #expect(throws: StoreError.readOnlyFileSystem(path: path)) { _ = try store.beginRun(note: "service") }
        #expect(try store.reopenWritable() == false)

        try #require(fs.remount(readOnly: false))
        #expect(try store.reopenWritable())
        #expect(!store.waitsForWritableFileSystem)
        let alice = try #require(try store.directory().drivers.first?.id)
        _ = try SyntheticTrip(seed: 2, startUTCMs: Self.t0 + 86_400_000, count: 300).record(in: store, driver: alice, name: "Alice", run: try store.beginRun(note: "service"))
        #expect(try TripStore(path: path, readOnly: true).sessions().count == 2)
        #expect(FileManager.default.fileExists(atPath: path + "-reserve"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fs.directory).allSatisfy { !$0.contains("corrupt") && !$0.hasSuffix("-probe") })
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root)"))
    func onADiskSmallerThanTheAllowanceTheWALAndTheReserveFitIt() throws {
        let fs = try SmallFileSystem(megabytes: 2)
        defer { fs.unmount() }
        let path = fs.directory + "/fairfuel.db"
        // The default profile: a 4 MiB WAL allowance and a 1 MiB reserve, more than this disk takes.
        let store = try TripStore(path: path)
        #expect(store.fittedReserveBytes == (2 << 20) / 16)
        #expect(SQLiteDatabaseFiles.size(of: path + "-reserve") == store.fittedReserveBytes, "the reserve was not made")
        let frames = try store.connection.pragmaInt("wal_autocheckpoint")
        #expect(frames * 4_096 <= 1 << 20, "a WAL of \(frames) frames on a 2 MB disk")
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "t")
        // Hours of 1 Hz points in the recorder's batches: the WAL stays within its fitted allowance.
        for day in 0..<4 {
            _ = try SyntheticTrip(seed: UInt64(day), startUTCMs: Self.t0 + Int64(day) * 86_400_000, count: 1_800)
                .record(in: store, driver: alice, name: "Alice", run: run, batch: 10)
        }
        let walBytes = SQLiteDatabaseFiles.size(of: path + "-wal") ?? 0
        #expect(walBytes <= (1 << 20) + 64 * 1024, "WAL \(walBytes) bytes")
        #expect(try store.sessions().count == 4)
    }
}
