import FairFuelCore
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing
import TestSupport

/// A full disk played by the counting VFS: writes inside the files work, growing them fails,
/// and nothing can be given back. The store must fail cleanly and carry on.
@Suite struct TripStoreDiskFullTests {
    static let t0: Int64 = 1_795_000_000_000

    static func store(_ log: LogCollector) throws -> (TripStore, SQLiteCountingVFS) {
        let vfs = try SQLiteCountingVFS.register(name: "disk-full-\(UUID().uuidString)")
        let store = try TripStore(path: temporaryStorePath(), configuration: StoreConfiguration(vfs: .named(vfs.name), log: log.sink))
        return (store, vfs)
    }

    @Test func withNothingLeftToThinTheWriteFailsCleanlyAndSucceedsLater() throws {
        let log = LogCollector()
        let (store, vfs) = try Self.store(log)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let id = try store.openSession(driver: alice, driverName: "Alice", run: try store.beginRun(note: "t"), startLinkMs: 0, startUTCMs: Self.t0)
        let trip = SyntheticTrip(seed: 1, startUTCMs: Self.t0, count: 5_000, session: id)
        vfs.setRefusesFileGrowth(true)
        #expect(throws: StoreError.diskFull(path: store.path, operation: "write")) { try store.appendTripPoints(trip.points) }
        #expect(try store.tripPoints(session: id).isEmpty)
        #expect(log.entries.contains { $0.0 == .error })
        // Space comes back: the same batch (the recorder keeps it) goes in.
        vfs.setRefusesFileGrowth(false)
        try store.appendTripPoints(trip.points)
        #expect(try store.tripPoints(session: id).count == 5_000)
        #expect(try store.checkIntegrity(full: true) == [])
    }
}

/// A real full file system: a small tmpfs (mounting one needs root; skipped otherwise) filled
/// up by another file, as logs would. The store gives up its reserve, thins the oldest tracks,
/// and goes on writing.
@Suite(.tags(.integration)) struct TripStoreFullFileSystemTests {
    static let t0: Int64 = 1_795_000_000_000

    static func mount(_ directory: String, megabytes: Int) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func unmount(_ directory: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [directory]
        try? process.run()
        process.waitUntilExit()
    }

    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let directory = NSTemporaryDirectory() + "fairfuel-mount-probe-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard mount(directory, megabytes: 1) else { return false }
        unmount(directory)
        return true
    }()

    @Test(.enabled(if: canMount, "needs to mount a small tmpfs (root)"))
    func aFullFileSystemIsMetByGivingUpTheReserveAndThinning() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-full-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try #require(Self.mount(directory, megabytes: 8))
        defer {
            Self.unmount(directory)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let log = LogCollector()
        let path = directory + "/store.db"
        let store = try TripStore(path: path, configuration: StoreConfiguration(log: log.sink))
        #expect(FileManager.default.fileExists(atPath: path + "-reserve"))
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "t")
        for day in 0..<12 {
            try SyntheticTrip(seed: UInt64(day), startUTCMs: Self.t0 + Int64(day) * 86_400_000, count: 1_800)
                .record(in: store, driver: alice, name: "Alice", run: run)
        }
        let summaries = try store.sessions()
        // Something else fills the file system to the last block.
        let filler = open(directory + "/journal.log", O_WRONLY | O_CREAT, 0o644)
        let block = [UInt8](repeating: 0x55, count: 4_096)
        while block.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) == 4_096 {}
        #expect(errno == ENOSPC)
        close(filler)

        let id = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: Self.t0 + 20 * 86_400_000)
        let trip = SyntheticTrip(seed: 99, startUTCMs: Self.t0 + 20 * 86_400_000, count: 20_000, session: id)
        var batch = 0
        while batch * 100 < trip.points.count {
            try store.appendTripPoints(trip.points[(batch * 100)..<min(trip.points.count, batch * 100 + 100)])
            batch += 1
        }
        try store.closeSession(id, record: trip.record(driver: alice), utc: { Self.t0 + 20 * 86_400_000 + $0.value })
        #expect(log.entries.contains { $0.0 == .error && $0.1.contains("released") }, "the disk never filled")
        #expect(!FileManager.default.fileExists(atPath: path + "-reserve"))
        #expect(try store.tripPoints(session: id).count == trip.points.count)
        #expect(try store.sessions().filter { $0.id != id } == summaries)
        #expect(try store.statistics().sessionsByTrackLevel[.simplified, default: 0] > 0)
        #expect(try store.checkIntegrity(full: true) == [])
        // Space comes back: the next retention pass takes the reserve back.
        try FileManager.default.removeItem(atPath: directory + "/journal.log")
        #expect(try store.enforceRetention(nowUTCMs: nil).reserveMissing == false)
        #expect(FileManager.default.fileExists(atPath: path + "-reserve"))
    }
}
