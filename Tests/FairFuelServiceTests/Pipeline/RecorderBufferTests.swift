import FairFuelCore
import FairFuelDomain
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// The recorder's trip-point buffer keeps the size it reserved, a week long, and when
/// the store refuses writes.
@Suite("Recorder buffer")
struct RecorderBufferTests {
    /// A store in a fresh directory with the scenario family provisioned.
    static func familyStore() throws -> (TripStore, String) {
        let directory = NSTemporaryDirectory() + "fairfuel-recorder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try TripStore(path: directory + "/fairfuel.db")
        for driver in ScenarioFamily.standard.drivers {
            try store.addDriver(name: driver.name, tags: [driver.tagIdentity], beacons: driver.fob.map { [$0.identity] } ?? [])
        }
        return (store, directory)
    }

    static func monitor() throws -> DrivingMonitor {
        DrivingMonitor(
            configuration: MonitorConfiguration(), directory: ScenarioFamily.standard.directory,
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
    }

    @Test("four days of a crowded car's outputs never grow the recorder's buffer")
    func fourDays() throws {
        try onLargeStack { try Self.fourDaysOnce() }
    }

    static func fourDaysOnce() throws {
        let (store, directory) = try Self.familyStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policy = TripPointFlushPolicy()
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "week"), directory: try store.directory(), policy: policy)
        let capacity = recorder.bufferCapacity
        #expect(capacity >= policy.flushPoints)
        var options = ScenarioOptions(seed: 78)
        options.crowd = 2
        var week = FamilyMonth(seed: 78, days: 4, options: options)
        var monitor = try Self.monitor()
        var fullest = 0
        while let day = week.day() {
            for event in day.events {
                guard let domainEvent = event.domainEvent(ignitionSense: true) else { continue }
                monitor.handle(domainEvent) { output in
                    recorder.record(output)
                    fullest = max(fullest, recorder.bufferedPointCount)
                }
            }
        }
        recorder.flush()
        #expect(recorder.firstError == nil)
        #expect(recorder.pointsWritten > 5_000)
        #expect(fullest <= policy.flushPoints)
        #expect(recorder.bufferCapacity == capacity)
        // One end per tap, and one more per trip taken up again without a tap (a forgotten
        // tap after a park, with the driver's fob aboard: continuity rules).
        #expect(recorder.sessionsEnded == week.truth.sessions.count + recorder.sessionsResumed)
    }

    @Test("while the store refuses writes the buffer stays at its size and thins its points, counting them")
    func refusingStore() throws {
        let (store, directory) = try Self.familyStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policy = TripPointFlushPolicy(flushIntervalMs: 10_000, flushPoints: 50)
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "refusing"), directory: try store.directory(), policy: policy)
        let capacity = recorder.bufferCapacity
        var world = ScenarioWorld(options: ScenarioOptions(seed: 79))
        world.board(.ben)
        world.ignitionOn()
        world.wait(seconds: 5)
        world.tap(.ben)
        world.wait(seconds: 30)
        var random = SeededGenerator(seed: 79)
        world.drive(Route.suburban(kilometers: 6, random: &random))
        let events = world.takeEvents()
        var monitor = try Self.monitor()
        var refusing = false
        var fullest = 0
        for (index, event) in events.enumerated() {
            if index == events.count / 3 {
                // Someone else holds the database read-only (a full disk behaves alike).
                try store.connection.execute("PRAGMA query_only = 1")
                refusing = true
            }
            guard let domainEvent = event.domainEvent(ignitionSense: true) else { continue }
            monitor.handle(domainEvent) { output in
                recorder.record(output)
                fullest = max(fullest, recorder.bufferedPointCount)
            }
        }
        #expect(refusing)
        #expect(recorder.errorCount > 0)
        #expect(recorder.pointsDropped > 0)
        #expect(recorder.losses.tripPoints == recorder.pointsDropped)
        #expect(fullest == policy.flushPoints)
        // Thinned by halves: between half full and full, first and last point kept.
        #expect(recorder.bufferedPointCount >= policy.flushPoints / 2 && recorder.bufferedPointCount <= policy.flushPoints)
        #expect(recorder.bufferCapacity == capacity)
        try store.connection.execute("PRAGMA query_only = 0")
        recorder.flush()
        #expect(recorder.bufferedPointCount == 0)
        #expect(recorder.bufferCapacity == capacity)
    }
}
