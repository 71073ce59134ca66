import FairFuelCore
import FairFuelDomain
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// The disk reserve on a real small tmpfs filled by something else: trip points the store
/// refuses (and the count of those it lost) never spend it; a session end does; and it is
/// taken back by the service's once-a-second retry as soon as space comes back, without a restart.
@Suite("Recorder and the disk reserve", .serialized, .tags(.integration))
struct RecorderDiskReserveTests {
    static let t0: Int64 = 1_795_000_000_000
    static let reserveBytes: Int64 = 256 * 1024

    static func point(_ driver: DriverID, second: Int64) -> DomainOutput {
        .tripPoint(TripPoint(
            driver: driver, at: LinkMilliseconds(second * 1_000), latitude: 48.1 + Double(second) * 1e-4, longitude: 11.5,
            speed: MetersPerSecond(12), distance: Meters(Double(second) * 12), fuel: Liters(Double(second) * 0.001)))
    }

    static func removeFillers(_ fs: SmallFileSystem) throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: fs.directory) where file.hasPrefix("filler") {
            try FileManager.default.removeItem(atPath: fs.directory + "/" + file)
        }
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"))
    func refusedTripPointsKeepTheReserveAndItComesBackWithTheSpace() throws {
        let fs = try SmallFileSystem(megabytes: 3)
        var retention = RetentionPolicy(diskReserveBytes: Self.reserveBytes)
        retention.walLimitBytes = 128 * 1024
        let path = fs.directory + "/fairfuel.db"
        let reservePath = path + "-reserve"
        let store = try TripStore(path: path, configuration: StoreConfiguration(retention: retention))
        #expect(FileManager.default.fileExists(atPath: reservePath))
        let anna = try store.addDriver(name: "Anna", tags: [], beacons: [])
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "reserve"), directory: try store.directory(), policy: TripPointFlushPolicy())
        recorder.record(.utcAnchored(offsetMs: Self.t0, at: LinkMilliseconds(0)))
        recorder.record(.sessionStarted(driver: anna, at: LinkMilliseconds(1_000)))
        #expect(recorder.currentSession != nil)

        fs.fill()
        // Half an hour of points at 1 Hz: far more than the WAL's free frames and the buffer hold.
        for second in Int64(2)..<1_800 { recorder.record(Self.point(anna, second: second)) }
        for _ in 0..<3 { recorder.retryStoreWrites() }
        #expect(recorder.storeRefusing, "the disk never refused a trip-point write")
        #expect(recorder.losses.tripPoints > 0, "no point was lost: the store took them all")
        #expect(FileManager.default.fileExists(atPath: reservePath), "refused trip points (or their loss count) spent the reserve")

        // A session end is what the reserve is for.
        var metrics = TripMetrics()
        metrics.distance = Meters(21_000)
        recorder.record(.sessionEnded(SessionRecord(
            driver: anna, startedAt: LinkMilliseconds(1_000), endedAt: LinkMilliseconds(1_800_000), reason: .departed,
            stoppedAt: nil, driverLeftAt: nil, metrics: metrics)))
        #expect(try store.sessions().first?.endReason == .departed, "the reserve did not make room for the session end")
        #expect(!FileManager.default.fileExists(atPath: reservePath))

        // Space comes back: the next retry tick takes the reserve back, no restart, no retention pass.
        try Self.removeFillers(fs)
        recorder.retryStoreWrites()
        #expect(FileManager.default.fileExists(atPath: reservePath), "the reserve was not taken back when space came back")
        // At most a sixteenth of this 3 MB file system: the room it is taken back with exists on any disk.
        #expect(SQLiteReserveSize.of(reservePath) == store.fittedReserveBytes)
        #expect(store.fittedReserveBytes == min(Self.reserveBytes, (3 << 20) / 16))
        #expect(try store.losses() == recorder.losses, "the loss counts went in once there was room")
        #expect(try store.checkIntegrity(full: true) == [])
    }
}

/// The reserve file's size as the file system sees it.
enum SQLiteReserveSize {
    static func of(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }
}
