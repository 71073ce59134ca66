import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelParsers
import FairFuelService
import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// A soak in small: minutes of the soak traffic streamed through a pipe into `Replay`,
/// as `fairfuel synth-capture --soak | fairfuel replay -` runs it for 24 hours.
@Suite("Soak replay", .tags(.replay))
struct SoakReplayTests {
    static func provisionedStore(in directory: String) throws -> TripStore {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try TripStore(path: directory + "/soak.db")
        for driver in SoakDriver.family {
            _ = try store.addDriver(
                name: driver.name, tags: [.uid(try TagUID(parsing: driver.tagText))], beacons: [try BeaconIdentity(spec: driver.beaconSpec)])
        }
        return store
    }

    @Test("ten minutes of soak traffic through a pipe give the generated trip, with flat memory")
    func tenMinutesThroughAPipe() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-soak-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.provisionedStore(in: directory)

        // One three-minute drive by Ben in the middle of a ten-minute morning, no jitter.
        var options = SoakTraffic.Options()
        options.durationMs = 600_000
        options.startMillisecondsOfDay = 10 * 3_600_000
        options.jitterMs = 0
        options.day = [SoakTripPlan(driver: 1, arrivalMsOfDay: 10 * 3_600_000 + 60_000, drivingMs: 180_000)]

        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        // If the replay fails early, the producer gets EPIPE rather than a fatal SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var readerOpen = true
        defer { if readerOpen { close(fds[0]) } }
        let producer = Producer(options: options, writeFD: fds[1])
        let thread = Thread { producer.run() }
        thread.start()

        var replay = Replay(capturePath: "/dev/fd/\(fds[0])", store: store)
        var snapshots: [(ReplaySnapshot, ProcessUsage)] = []
        replay.progress = ReplayProgress(everyMs: 150_000) { snapshots.append(($0, ProcessUsage.now())) }
        let report = try replay.run()
        close(fds[0])
        readerOpen = false
        producer.done.wait()
        let generated = producer.statistics

        #expect(producer.error == nil)
        #expect(report.link.errorTotal == 0)
        #expect(report.link.frames == UInt64(generated.frames))
        #expect(report.sessionsStarted == 1)
        #expect(report.sessionsEnded == 1)
        // Points are kept at 1 Hz from the tap until the session ends: the 180 s of driving
        // and the stands before and after it, never more than the session's seconds.
        let sessions = try store.sessions()
        #expect(sessions.count == 1)
        let session = try #require(sessions.first)
        #expect(session.driverName == "Ben")
        #expect(session.endReason == .departed)
        let seconds = Int(session.durationMs / 1_000)
        #expect(report.pointsWritten >= 180 && report.pointsWritten <= seconds + 1, "\(report.pointsWritten) points in \(seconds) s")
        #expect(session.distanceMeters > 1_000, "\(session.distanceMeters) m")

        // Snapshots at 2.5, 5 and 7.5 minutes and one at the end, in order.
        #expect(snapshots.map(\.0.captureMs).prefix(3) == [150_000, 300_000, 450_000])
        #expect(snapshots.last?.0.isFinal == true)
        #expect(snapshots.map(\.0.frames) == snapshots.map(\.0.frames).sorted())
        #expect(snapshots.last?.0.frames == report.link.frames)
        // Resident memory is not asserted here: tests run in parallel in this process, so its
        // RSS says more about them than about the replay. scripts/soak.sh measures a replay
        // process on its own (docs/soak.md); here the snapshots must at least carry a reading.
        #expect(snapshots.allSatisfy { $0.1.residentKiB ?? 0 > 0 })
    }

    @Test("an in-process replay of the soak reads matches the piped one")
    func inProcessMatchesPipe() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-soak-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = SoakTraffic.Options()
        options.durationMs = 120_000
        options.startMillisecondsOfDay = 10 * 3_600_000
        options.jitterMs = 0
        options.day = [SoakTripPlan(driver: 0, arrivalMsOfDay: 10 * 3_600_000, drivingMs: 60_000)]

        let capturePath = directory + "/soak.ffcap"
        var traffic = SoakTraffic(options: options)
        let writer = try SoakCaptureWriter(path: capturePath)
        try writer.writeLine("# fairfuel capture v1")
        traffic.generate(untilMs: options.durationMs) { time, bytes in try! writer.writeRead(timeMs: time, bytes: bytes) }
        try writer.close()
        let fromFile = try Replay(capturePath: capturePath, store: try Self.provisionedStore(in: directory + "/a")).run()

        var again = SoakTraffic(options: options)
        let inProcess = try Replay(capturePath: "-", store: try Self.provisionedStore(in: directory + "/b")).run(note: "soak") { feed in
            again.generate(untilMs: options.durationMs, feed)
        }
        #expect(fromFile.link == inProcess.link)
        #expect(fromFile.link.frames == UInt64(traffic.statistics.frames))
        #expect(fromFile.sessionsStarted == 1 && inProcess.sessionsStarted == 1)
        #expect(fromFile.pointsWritten == inProcess.pointsWritten)
        #expect(fromFile.lastTimeMs == inProcess.lastTimeMs)
    }
}

/// Generates the soak capture into a pipe on a thread of its own.
private final class Producer: @unchecked Sendable {
    let options: SoakTraffic.Options
    let writeFD: Int32
    let done = DispatchSemaphore(value: 0)
    var statistics = SoakTraffic.Statistics()
    var error: Error?

    init(options: SoakTraffic.Options, writeFD: Int32) {
        self.options = options
        self.writeFD = writeFD
    }

    func run() {
        defer {
            close(writeFD)
            done.signal()
        }
        do {
            let writer = try SoakCaptureWriter(path: "/dev/fd/\(writeFD)")
            try writer.writeLine("# fairfuel capture v1")
            var traffic = SoakTraffic(options: options)
            var failure: FileError?
            var until: Int64 = 0
            while !traffic.isFinished && failure == nil {
                until += 60_000
                traffic.generate(untilMs: until) { time, bytes in
                    guard failure == nil else { return }
                    do throws(FileError) { try writer.writeRead(timeMs: time, bytes: bytes) } catch { failure = error }
                }
            }
            if let failure { throw failure }
            try writer.close()
            statistics = traffic.statistics
        } catch {
            self.error = error
        }
    }
}
