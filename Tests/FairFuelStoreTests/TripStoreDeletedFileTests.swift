import FairFuelCore
@testable import FairFuelStore
import Foundation
import Testing

/// `rm fairfuel.db fairfuel.db-wal fairfuel.db-shm` under a running store: the connection
/// writes on to unlinked files, which the next start would not find. The check writes the
/// data back at the path from the open connection and carries on there.
@Suite struct TripStoreDeletedFileTests {
    static let t0: Int64 = 1_795_000_000_000

    static func storeWithATrip() throws -> (TripStore, DriverID, Int64, LogCollector) {
        let log = LogCollector()
        let store = try TripStore(path: temporaryStorePath(), configuration: StoreConfiguration(log: log.sink))
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "t")
        _ = try SyntheticTrip(seed: 1, startUTCMs: t0, count: 600).record(in: store, driver: alice, name: "Alice", run: run)
        return (store, alice, run, log)
    }

    static func remove(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
    }

    @Test func aDeletedStoreIsWrittenBackWithWhatWasWrittenAfterTheDeletion() throws {
        let (store, alice, run, log) = try Self.storeWithATrip()
        #expect(store.checkFileInPlace(wallClockUTCMs: Self.t0) == .inPlace)
        Self.remove(store.path)
        // The service notices only at its next tick: a trip goes on meanwhile into the unlinked file.
        let during = try SyntheticTrip(seed: 2, startUTCMs: Self.t0 + 3_600_000, count: 300)
            .record(in: store, driver: alice, name: "Alice", run: run)
        #expect(!FileManager.default.fileExists(atPath: store.path))

        #expect(store.checkFileInPlace(wallClockUTCMs: Self.t0) == .restored(replacedMovedTo: nil))
        #expect(log.entries.contains { $0.0 == .error && $0.1.contains("was deleted while the service ran") })
        let reader = try TripStore(path: store.path, readOnly: true)
        #expect(try reader.directory().drivers.map(\.name) == ["Alice"])
        #expect(try reader.sessions().count == 2)
        #expect(try reader.tripPoints(session: during).count == 300)
        #expect(try reader.events(kind: "store_restored").count == 1)
        // The writer goes on in the file at the path, in WAL mode, checked and found in place.
        _ = try SyntheticTrip(seed: 3, startUTCMs: Self.t0 + 7_200_000, count: 100).record(in: store, driver: alice, name: "Alice", run: run)
        #expect(try reader.sessions().count == 3)
        #expect(try store.connection.scalarText("PRAGMA journal_mode") == "wal")
        #expect(store.checkFileInPlace(wallClockUTCMs: Self.t0) == .inPlace)
        #expect(try store.checkIntegrity(full: true) == [])
        #expect(!FileManager.default.fileExists(atPath: store.path + ".restoring"))
    }

    @Test func aStoreWhosePathHasAQuoteIsWrittenBackToo() throws {
        // The copy's name goes to SQLite as a bound value, so no quoting can break it.
        let path = temporaryStorePath("Anna's car; DROP")
        let store = try TripStore(path: path)
        let anna = try store.addDriver(name: "Anna", tags: [], beacons: [])
        _ = try SyntheticTrip(seed: 4, startUTCMs: Self.t0, count: 120)
            .record(in: store, driver: anna, name: "Anna", run: try store.beginRun(note: "t"))
        #expect(store.checkFileInPlace(wallClockUTCMs: Self.t0) == .inPlace)
        Self.remove(path)
        #expect(store.checkFileInPlace(wallClockUTCMs: Self.t0) == .restored(replacedMovedTo: nil))
        let reader = try TripStore(path: path, readOnly: true)
        #expect(try reader.sessions().count == 1)
        #expect(!FileManager.default.fileExists(atPath: path + ".restoring"))
    }

    @Test func aFilePutInItsPlaceIsMovedAsideNotOverwritten() throws {
        let (store, _, _, _) = try Self.storeWithATrip()
        Self.remove(store.path)
        // A command that writes created a new, empty store there meanwhile.
        do {
            let other = try TripStore(path: store.path)
            _ = try other.addDriver(name: "Bob", tags: [], beacons: [])
        }
        guard case let .restored(movedTo?) = store.checkFileInPlace(wallClockUTCMs: Self.t0) else {
            Issue.record("not restored with the other file moved aside")
            return
        }
        #expect(movedTo.hasPrefix(store.path + ".replaced-"))
        #expect(try TripStore(path: movedTo, readOnly: true).directory().drivers.map(\.name) == ["Bob"])
        let reader = try TripStore(path: store.path, readOnly: true)
        #expect(try reader.directory().drivers.map(\.name) == ["Alice"])
        #expect(try reader.sessions().count == 1)
    }
}
