import FairFuelCore
import FairFuelDomain
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// A family's day recorded into a store on a small tmpfs that something else fills up halfway:
/// every session start and end and every untracked record is in the store, waiting, or counted
/// lost (and the count is persisted); when space comes back the recorder catches up by itself.
@Suite("Recorder on a full disk", .serialized, .tags(.integration))
struct RecorderFullDiskTests {
    struct Day {
        var fs: SmallFileSystem
        var store: TripStore
        var recorder: SessionRecorder
        var log: LogLines
        var starts = 0
        var ends = 0
        var untracked = 0
        /// The untracked records' distance: the store joins back-to-back records into one drive.
        var untrackedMeters = 0.0
        var refusedSeen = false
    }

    final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var all: [String] { lock.withLock { lines } }
        func append(_ line: [UInt8]) { lock.withLock { lines.append(String(decoding: line, as: UTF8.self)) } }
    }

    /// Plays four days of the family month; the disk is filled when `fillAtFraction` of the events have passed.
    static func play(seed: UInt64, pendingRecordsMax: Int, reserveBytes: Int64, fillAtFraction: Double) throws -> Day {
        let fs = try SmallFileSystem(megabytes: 3)
        var retention = RetentionPolicy(diskReserveBytes: reserveBytes)
        retention.walLimitBytes = 128 * 1024
        let store = try TripStore(path: fs.directory + "/fairfuel.db", configuration: StoreConfiguration(retention: retention))
        for driver in ScenarioFamily.standard.drivers {
            try store.addDriver(name: driver.name, tags: [driver.tagIdentity], beacons: driver.fob.map { [$0.identity] } ?? [])
        }
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "full disk"), directory: try store.directory(),
            policy: TripPointFlushPolicy(), pendingRecordsMax: pendingRecordsMax)
        let log = LogLines()
        recorder.logger = Logger(minimumLevel: .info, sink: { log.append($0) })
        var day = Day(fs: fs, store: store, recorder: recorder, log: log)
        var options = ScenarioOptions(seed: seed)
        options.crowd = 0
        var month = FamilyMonth(seed: seed, days: 4, options: options)
        var monitor = DrivingMonitor(
            configuration: MonitorConfiguration(), directory: ScenarioFamily.standard.directory,
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
        var events: [ScenarioEvent] = []
        while let next = month.day() { events += next.events }
        let fillAt = Int(Double(events.count) * fillAtFraction)
        for (index, event) in events.enumerated() {
            if index == fillAt { fs.fill() }
            guard let domainEvent = event.domainEvent(ignitionSense: true) else { continue }
            monitor.handle(domainEvent) { output in
                switch output {
                case .sessionStarted: day.starts += 1
                case .sessionEnded: day.ends += 1
                case let .untrackedDriving(chunk):
                    day.untracked += 1
                    day.untrackedMeters += chunk.distance.value
                default: break
                }
                recorder.record(output)
                if recorder.storeRefusing { day.refusedSeen = true }
            }
        }
        return day
    }

    /// Untracked distance in the store (records are joined into drives there: distances add up, counts do not).
    static func storedUntrackedMeters(_ store: TripStore) throws -> Double {
        try store.connection.query("SELECT COALESCE(SUM(distance_m), 0) FROM untracked_driving") { $0.double(0) }.first ?? 0
    }

    static func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 0.01 }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"))
    func aDayOnAFillingDiskLosesNothingUncountedAndCatchesUp() throws {
        // Filled before the first session ends: with an old track to thin, whether thinning it fits
        // in what the full disk leaves depends on the store's page layout (a schema change moved it),
        // and the store copes without refusing; this test is about the refusals.
        let day = try Self.play(seed: 4101, pendingRecordsMax: 64, reserveBytes: 0, fillAtFraction: 0.1)
        let store = day.store, recorder = day.recorder
        #expect(day.refusedSeen, "the disk never refused a write")
        #expect(day.ends >= 3, "too few sessions to say anything")
        // While full: every session is in the store, waiting in memory, or counted.
        let storedWhileFull = try store.sessions()
        print("full disk, while full: \(day.starts) starts, \(day.ends) ends, \(day.untracked) untracked; "
            + "\(storedWhileFull.count(where: { $0.endReason != nil })) ended in the store, \(recorder.pendingRecordCount) waiting, lost \(recorder.losses)")
        #expect(storedWhileFull.count(where: { $0.endReason != nil }) + recorder.pendingRecordCount + recorder.losses.sessionEnds >= day.ends)
        #expect(recorder.losses.recordsThatMatter == 0, "a 64-record queue holds a day's sessions")
        #expect(recorder.pendingRecordCount <= 64)
        #expect(day.log.all.contains { $0.contains("store refusing writes") })
        // Space comes back (the filler is deleted): the next flush catches up, no restart.
        for file in try FileManager.default.contentsOfDirectory(atPath: day.fs.directory) where file.hasPrefix("filler") {
            try FileManager.default.removeItem(atPath: day.fs.directory + "/" + file)
        }
        recorder.flush()
        #expect(recorder.pendingRecordCount == 0)
        #expect(!recorder.storeRefusing)
        let stored = try store.sessions()
        #expect(stored.count == day.starts)
        #expect(stored.count(where: { $0.endReason != nil }) == day.ends)
        let storedMeters = try Self.storedUntrackedMeters(store)
        #expect(Self.same(storedMeters, day.untrackedMeters), "\(storedMeters) m stored, \(day.untrackedMeters) m emitted")
        // Points thinned while full are counted, and the count is in the store.
        #expect(try store.losses() == recorder.losses)
        #expect(try store.checkIntegrity(full: true) == [])
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"))
    func aBoundedQueueCountsWhatItCannotHoldAndPersistsTheCount() throws {
        let day = try Self.play(seed: 4102, pendingRecordsMax: 2, reserveBytes: 0, fillAtFraction: 0.2)
        let store = day.store, recorder = day.recorder
        #expect(day.refusedSeen)
        #expect(recorder.pendingRecordCount <= 3)  // two ends or untracked, and one start
        #expect(day.log.all.count(where: { $0.contains("lost") && $0.contains("counted in") }) <= 1, "one line per episode")
        for file in try FileManager.default.contentsOfDirectory(atPath: day.fs.directory) where file.hasPrefix("filler") {
            try FileManager.default.removeItem(atPath: day.fs.directory + "/" + file)
        }
        recorder.flush()
        let stored = try store.sessions()
        print("bounded queue: \(day.ends) ends, \(day.untracked) untracked; \(stored.count(where: { $0.endReason != nil })) ended in the store, lost \(recorder.losses)")
        // Each ended session is in the store or counted lost; nothing else.
        #expect(stored.count(where: { $0.endReason != nil }) + recorder.losses.sessionEnds == day.ends)
        #expect(Self.same(try Self.storedUntrackedMeters(store) + recorder.untrackedMetersLost, day.untrackedMeters))
        #expect(try store.losses() == recorder.losses)
        if !recorder.losses.isEmpty { #expect(day.log.all.contains { $0.contains("caught up; lost since start-up") }) }
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs to mount a small tmpfs (root); CI runs as root"), arguments: [0, 256 * 1024] as [Int64])
    func stoppingWhileTheDiskIsStillFullSaysExactlyWhatWasLost(reserveBytes: Int64) throws {
        let day = try Self.play(seed: 4103, pendingRecordsMax: 64, reserveBytes: reserveBytes, fillAtFraction: 0.25)
        let store = day.store, recorder = day.recorder
        #expect(day.ends >= 3)
        // SIGTERM now, the disk still full: the reserve is spent on what waits.
        let pendingBefore = recorder.pendingRecordCount
        let (lost, saved) = recorder.finish()
        let stored = try store.sessions()
        print("stop while full: \(day.ends) ends, \(pendingBefore) waiting at the stop; lost \(lost), counted in the store: \(saved)")
        #expect(stored.count(where: { $0.endReason != nil }) + lost.sessionEnds == day.ends)
        #expect(stored.count + lost.sessionStarts >= day.starts)
        #expect(Self.same(try Self.storedUntrackedMeters(store) + recorder.untrackedMetersLost, day.untrackedMeters))
        #expect(lost == recorder.losses)
        if saved { #expect(try store.losses() == lost) }
        #expect(recorder.pendingRecordCount == 0)
        if reserveBytes == 0 {
            #expect(pendingBefore > 0, "nothing waited: the test proves nothing")
            #expect(lost.recordsThatMatter > 0)
        } else {
            #expect(saved, "the reserve was there to count the losses")
        }
    }
}
