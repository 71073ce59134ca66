import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

@Suite struct TripStoreWritePathTests {
    static let t0: Int64 = 1_795_000_000_000

    /// The flush of a batch is one commit that rewrites one page: the rightmost leaf of
    /// `track_chunks` (the session's row is left alone). With `synchronous=FULL` it is one fsync.
    @Test func aBatchOfPointsIsOnePageAndOneSync() throws {
        let store = try TripStore(path: temporaryStorePath(), configuration: StoreConfiguration(vfs: .counting))
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "test")
        let beforeOpen = try #require(store.ioCounters)
        let id = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: Self.t0)
        #expect(try #require(store.ioCounters).since(beforeOpen).syncs == 1)
        let trip = SyntheticTrip(seed: 3, startUTCMs: Self.t0, count: 600, session: id)
        let before = try #require(store.ioCounters)
        let batches = 60
        for batch in 0..<batches { try store.appendTripPoints(trip.points[(batch * 10)..<(batch * 10 + 10)]) }
        let delta = try #require(store.ioCounters).since(before)
        #expect(delta.walSyncs == UInt64(batches))
        #expect(delta.databaseSyncs == 0)
        let frames = Double(delta.walBytesWritten) / Double(4_096 + 24)
        #expect(frames / Double(batches) < 1.2, "\(frames) WAL frames for \(batches) batches")
        #expect(try store.tripPoints(session: id).map(quantized) == trip.points.map(quantized))
        let beforeClose = try #require(store.ioCounters)
        try store.closeSession(id, record: trip.record(driver: alice), utc: { Self.t0 + $0.value })
        #expect(try #require(store.ioCounters).since(beforeClose).syncs == 1)
    }

    @Test func anOpenSessionShowsItsTotalsFromItsLastPoint() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let id = try store.openSession(driver: alice, driverName: "Alice", run: try store.beginRun(note: "t"), startLinkMs: 0, startUTCMs: Self.t0)
        let trip = SyntheticTrip(seed: 4, startUTCMs: Self.t0, count: 30, session: id)
        try store.appendTripPoints(trip.points)
        let session = try #require(try store.sessions().first)
        #expect(session.endReason == nil)
        #expect(abs(session.distanceMeters - trip.points.last!.distanceMeters) < 0.01)
        #expect(session.durationMs == trip.points.last!.utcMs - Self.t0)
    }

    @Test func batchesOfSeveralSessionsAndLongBatchesAreCutIntoChunks() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "t")
        let a = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: Self.t0)
        let b = try store.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 1, startUTCMs: Self.t0)
        let first = SyntheticTrip(seed: 5, startUTCMs: Self.t0, count: 500, session: a).points
        let second = SyntheticTrip(seed: 6, startUTCMs: Self.t0, count: 20, session: b).points
        try store.appendTripPoints(first[0..<5] + second[0..<10] + first[5...] + second[10...])
        #expect(try store.tripPoints(session: a).map(quantized) == first.map(quantized))
        #expect(try store.tripPoints(session: b).map(quantized) == second.map(quantized))
        let chunks = try store.connection.query("SELECT point_count, length(points) FROM track_chunks WHERE session_id = ?", .integer(a.rawValue)) {
            ($0.int(0), $0.int(1))
        }
        #expect(chunks.count > 2)
        #expect(chunks.allSatisfy { $0.1 < 1_000 })  // a chunk's row stays within one page
    }
}

@Suite struct TripStoreReaderTests {
    /// A reader keeps the snapshot it started with, sees only committed rows, and never makes
    /// the writer wait, even while it holds a read transaction open.
    @Test func readersNeverBlockTheWriterAndSeeCommittedDataOnly() throws {
        let path = temporaryStorePath()
        let writer = try TripStore(path: path, configuration: StoreConfiguration(busyTimeoutMs: 0))
        let alice = try writer.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try writer.beginRun(note: "t")
        let id = try writer.openSession(driver: alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: 1_795_000_000_000)
        let trip = SyntheticTrip(seed: 7, startUTCMs: 1_795_000_000_000, count: 2_000, session: id)
        try writer.appendTripPoints(trip.points[0..<10])

        let reader = try TripStore(path: path, readOnly: true)
        try reader.connection.execute("BEGIN")
        #expect(try reader.tripPoints(session: id).count == 10)
        // A busy timeout of 0: any wait on the reader would fail the write at once.
        for batch in 1..<200 { try writer.appendTripPoints(trip.points[(batch * 10)..<(batch * 10 + 10)]) }
        #expect(try reader.tripPoints(session: id).count == 10)
        // A transaction the writer has not committed is invisible.
        try writer.connection.execute("BEGIN IMMEDIATE")
        try writer.connection.run("INSERT INTO events (kind, detail) VALUES ('x', 'uncommitted')")
        try reader.connection.execute("COMMIT")
        #expect(try reader.tripPoints(session: id).count == 2_000)
        #expect(try reader.events(kind: "x").isEmpty)
        try writer.connection.execute("ROLLBACK")
        // Readers cannot write.
        #expect(throws: StoreError.self) { try reader.logEvent(kind: "x", detail: "y", utcMs: nil) }
    }

    @Test func aReaderInAnotherThreadReadsWhileTheWriterWrites() async throws {
        let path = temporaryStorePath()
        let writer = try TripStore(path: path, configuration: StoreConfiguration(busyTimeoutMs: 0))
        let alice = try writer.addDriver(name: "Alice", tags: [], beacons: [])
        let id = try writer.openSession(driver: alice, driverName: "Alice", run: try writer.beginRun(note: "t"), startLinkMs: 0, startUTCMs: 1_795_000_000_000)
        let points = SyntheticTrip(seed: 8, startUTCMs: 1_795_000_000_000, count: 3_000, session: id).points
        let reading = Task.detached { () throws -> Int in
            let reader = try TripStore(path: path, readOnly: true)
            var counts: [Int] = []
            for _ in 0..<200 {
                let count = try reader.tripPoints(session: id).count
                #expect(count % 10 == 0, "a reader saw half a batch")
                counts.append(count)
            }
            #expect(counts == counts.sorted())
            return counts.last ?? 0
        }
        for batch in 0..<300 { try writer.appendTripPoints(points[(batch * 10)..<(batch * 10 + 10)]) }
        _ = try await reading.value
    }
}
