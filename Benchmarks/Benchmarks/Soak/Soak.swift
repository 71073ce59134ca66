// One simulated hour of the soak traffic (scripts/soak.sh, docs/soak.md) in-process, in two
// parts, to show where the replay's CPU goes:
//
// - "link to store": the serial reads of a pure driving hour (the standard day's long
//   drive, 13:00 to 14:00: 10 Hz GNSS, 50 advertisements/s from 20 advertisers, a session
//   open, trip points at 1 Hz into the store) through `Replay.run(note:reads:)`: frame
//   decoder, LinkIngest, the domain and the SessionRecorder, as the live service runs them.
//   The reads are generated before the measured region; the 20 minutes before 13:00 (the
//   arrival, the tap, the session's start) are fed outside it.
// - "capture text": the same hour as `.ffcap` text read by `CaptureReading` (line
//   splitting, CaptureParser, hex) without decoding: what `fairfuel replay` adds on top.
//
// Target (issue 6): at most 0.5 CPU s per driving hour. cpuTotal is per iteration = per hour.
// Run: cd Benchmarks && swift package --scratch-path .build-scen benchmark --target Soak
import Benchmark
import FairFuelCore
import FairFuelParsers
import FairFuelService
import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reads of 12:40 to 14:00 of the soak day, kept flat: one byte array and the read boundaries.
struct SoakHour {
    static let measuredFromMs: Int64 = 20 * 60_000
    var bytes: [UInt8] = []
    var reads: [(timeMs: UInt64, end: Int)] = []
    var measuredFirstRead = 0
    var frames = 0

    static let shared: SoakHour = {
        var options = SoakTraffic.Options()
        options.startMillisecondsOfDay = (12 * 60 + 40) * 60_000
        options.durationMs = 80 * 60_000
        var traffic = SoakTraffic(options: options)
        var hour = SoakHour()
        hour.bytes.reserveCapacity(16 << 20)
        traffic.generate(untilMs: options.durationMs) { time, chunk in
            if time < UInt64(measuredFromMs) { hour.measuredFirstRead = hour.reads.count + 1 }
            hour.bytes += chunk
            hour.reads.append((time, hour.bytes.count))
        }
        hour.frames = traffic.statistics.frames
        return hour
    }()

    func feed(_ range: Range<Int>, _ feed: (UInt64, ArraySlice<UInt8>) -> Void) {
        for index in range {
            let start = index == 0 ? 0 : reads[index - 1].end
            feed(reads[index].timeMs, bytes[start..<reads[index].end])
        }
    }

    /// The measured hour as a capture file.
    static let capturePath: String = {
        let path = "/tmp/fairfuel-benchmark-soak-hour.ffcap"
        let writer = try! SoakCaptureWriter(path: path)
        try! writer.writeLine("# fairfuel capture v1")
        shared.feed(shared.measuredFirstRead..<shared.reads.count) { time, bytes in try! writer.writeRead(timeMs: time, bytes: bytes) }
        try! writer.close()
        return path
    }()

    static func store(_ path: String) throws -> TripStore {
        for suffix in ["", "-wal", "-shm", "-reserve"] { unlink(path + suffix) }
        let store = try TripStore(path: path)
        for driver in SoakDriver.family {
            try store.addDriver(
                name: driver.name, tags: [.uid(try TagUID(parsing: driver.tagText))], beacons: [try BeaconIdentity(spec: driver.beaconSpec)])
        }
        return store
    }
}

let framesPerHour = BenchmarkMetric.custom("frames/h", polarity: .prefersLarger, useScalingFactor: false)
let pointsPerHour = BenchmarkMetric.custom("points/h", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.cpuTotal, .wallClock, .mallocCountTotal, .peakMemoryResident, framesPerHour, pointsPerHour],
        warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 5)

    Benchmark("Soak: a driving hour, link to store (in-process)") { benchmark in
        let hour = SoakHour.shared
        let store = try SoakHour.store("/tmp/fairfuel-benchmark-soak.db")
        var pointsAtStart = 0
        var framesAtStart: UInt64 = 0
        var replay = Replay(capturePath: "-", store: store)
        replay.progress = ReplayProgress(everyMs: SoakHour.measuredFromMs) { snapshot in
            guard !snapshot.isFinal, snapshot.captureMs == UInt64(SoakHour.measuredFromMs) else { return }
            pointsAtStart = snapshot.pointsWritten
            framesAtStart = snapshot.frames
        }
        let report = try replay.run(note: "benchmark") { feed in
            hour.feed(0..<hour.measuredFirstRead, feed)
            benchmark.startMeasurement()
            hour.feed(hour.measuredFirstRead..<hour.reads.count, feed)
        }
        benchmark.stopMeasurement()
        precondition(report.link.errorTotal == 0 && report.sessionsStarted == 1, "the soak hour did not replay cleanly")
        benchmark.measurement(framesPerHour, Int(report.link.frames - framesAtStart))
        benchmark.measurement(pointsPerHour, report.pointsWritten - pointsAtStart)
    }

    Benchmark("Soak: a driving hour as capture text, read without decoding") { benchmark in
        let path = SoakHour.capturePath
        var bytes = 0
        benchmark.startMeasurement()
        try CaptureReading(path: path).forEachRead { _, chunk in bytes += chunk.count }
        benchmark.stopMeasurement()
        precondition(bytes > 10_000_000, "the capture is shorter than an hour")
    }
}
