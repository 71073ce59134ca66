// The rolling store's write path, measured where the SD card feels it: bytes handed to
// write(2) and fsync calls, counted by the store's counting VFS, per hour of driving.
//
// "Driving hours at 10 Hz": six hours of a car in town (accelerate, cruise, brake, stand at
// a light), 10 Hz GNSS fixes and a tick a second, three 20-minute trips an hour (tap, drive,
// end). The events go through the real pipeline: DrivingMonitor (which keeps trip points at
// the board profile's 1 Hz) and SessionRecorder (batches every 10 s or 100 points, sessions
// opened and closed durably) into a TripStore with the Pi Zero 2 W profile: WAL,
// synchronous=FULL, the default budget. A fresh store per iteration; six hours take in two
// WAL checkpoints, so the per-hour figures include them. Targets: at most 2 MB written and
// at most 400 fsyncs per driving hour.
//
// Insert throughput: trip points per second through `appendTripPoints`, in the recorder's
// 10-point batches (one fsync each) and in 1000-point batches.
//
// Resume decision at start-up: what the service reads from a year-old store to decide
// whether the trip it was killed in goes on (TripStore.tripToContinue: the newest session
// row, its track, older open sessions closed). A year of a family's driving (1 Hz tracks,
// about 1.8 driving hours a day, 4 trips a day) is built once into a file and reused;
// the newest session is left open, as a SIGKILL mid-trip leaves it. Target: under 50 ms.
//
// Run: cd Benchmarks && swift package --scratch-path .build-store benchmark --target Store
import Benchmark
import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelService
import FairFuelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Drive {
    static let hours = 6
    static let tripsPerHour = 3
    static let tagUID: [UInt8] = [0x04, 0x5A, 0x1E, 0x72, 0x9B, 0x61, 0x80]
    static let utcStart: Int64 = 1_793_599_200_000

    /// Every event of the six hours, built once.
    static let events: [DomainEvent] = {
        var state: UInt64 = 0x5EED
        func noise() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) * 0x1p-53 - 0.5
        }
        let read = try! NFCTagIdentities(technology: .iso14443A, uid: tagUID[...], ndef: [][...])
        var events: [DomainEvent] = []
        events.reserveCapacity(hours * 3_600 * 11 + 100)
        var latitude = 48.137
        var longitude = 11.575
        let tripMs: Int64 = 3_600_000 / Int64(tripsPerHour)
        for trip in 0..<(hours * tripsPerHour) {
            let base = Int64(trip) * tripMs
            events.append(.tagRead(read, at: LinkMilliseconds(base + 500)))
            var speed = 0.0
            var phase = 0  // 0 accelerate, 1 cruise, 2 brake, 3 stand
            var phaseMs: Int64 = 0
            var heading = Double(trip) * 0.7
            var time: Int64 = 1_000
            while time < tripMs - 30_000 {
                let dt = 0.1
                switch phase {
                case 0: speed = min(14, speed + 1.5 * dt); if speed >= 14 { phase = 1; phaseMs = time }
                case 1: if time - phaseMs > 25_000 { phase = 2 }
                case 2: speed = max(0, speed - 2 * dt); if speed == 0 { phase = 3; phaseMs = time; heading += 1.3 }
                default: if time - phaseMs > 20_000 { phase = 0 }
                }
                latitude += speed * dt * cos(heading) / 111_320
                longitude += speed * dt * sin(heading) / 74_500
                let fix = GNSSFix(
                    utc: UTCTimestamp(millisecondsSinceEpoch: utcStart + base + time), latitude: latitude + noise() * 2e-5,
                    longitude: longitude + noise() * 3e-5, altitude: Meters(520), speed: MetersPerSecond(abs(speed + noise() * 0.3)),
                    course: heading * 180 / .pi, mode: .fix3D, satellitesUsed: 9, hdop: 0.9)
                events.append(.fix(fix, at: LinkMilliseconds(base + time)))
                if time % 1_000 == 900 { events.append(.tick(at: LinkMilliseconds(base + time))) }
                time += 100
            }
            events.append(.endSession(at: LinkMilliseconds(base + time)))
        }
        return events
    }()

    /// A fresh store at `path` with the Pi Zero 2 W profile, counting its I/O, and driver 1 provisioned.
    static func store(_ path: String) throws -> TripStore {
        for suffix in ["", "-wal", "-shm", "-reserve"] { unlink(path + suffix) }
        let profile = BoardProfile.piZero2W.store
        let retention = RetentionPolicy(
            diskBudgetBytes: profile.diskBudgetBytes, tripPointMaxAgeDays: profile.tripPointMaxAgeDays, eventLogMaxRows: profile.eventLogMaxRows)
        let store = try TripStore(path: path, configuration: StoreConfiguration(retention: retention, vfs: .counting))
        try store.addDriver(name: "Alice", tags: [.uid(try TagUID(bytes: tagUID[...]))], beacons: [])
        return store
    }

    /// Runs the six hours through the domain and the recorder; returns the trip points written.
    static func run(into store: TripStore) throws -> Int {
        let profile = BoardProfile.piZero2W.store
        var configuration = MonitorConfiguration()
        configuration.tripPointIntervalMs = Int64(1_000 / max(1, profile.tripPointKeepHz))
        let directory = try store.directory()
        var monitor = DrivingMonitor(
            configuration: configuration, directory: directory, fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
        let recorder = SessionRecorder(
            store: store, run: try store.beginRun(note: "benchmark"), directory: directory,
            policy: TripPointFlushPolicy(flushIntervalMs: Int64(profile.tripPointFlushSeconds) * 1_000, flushPoints: profile.tripPointFlushPoints))
        for event in events { monitor.handle(event, recorder.record) }
        recorder.flush()
        precondition(recorder.errorCount == 0, "the store refused a write: \(String(describing: recorder.firstError))")
        precondition(recorder.sessionsStarted == hours * tripsPerHour && recorder.sessionsEnded == hours * tripsPerHour)
        return recorder.pointsWritten
    }
}

let bytesPerHour = BenchmarkMetric.custom("bytes written/driving h", polarity: .prefersSmaller, useScalingFactor: false)
let walBytesPerHour = BenchmarkMetric.custom("WAL bytes/driving h", polarity: .prefersSmaller, useScalingFactor: false)
let databaseBytesPerHour = BenchmarkMetric.custom("DB bytes/driving h", polarity: .prefersSmaller, useScalingFactor: false)
let fsyncsPerHour = BenchmarkMetric.custom("fsyncs/driving h", polarity: .prefersSmaller, useScalingFactor: false)
let pointsPerHour = BenchmarkMetric.custom("points/driving h", polarity: .prefersLarger, useScalingFactor: false)
let pointsPerSecond = BenchmarkMetric.custom("points/s", polarity: .prefersLarger, useScalingFactor: false)

/// A year-old store whose newest session was left open by a kill mid-trip.
enum YearOldStore {
    static let path = "/tmp/fairfuel-benchmark-year-old.db"
    static let days = 365
    static let t0: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z

    static func open() throws -> TripStore {
        if access(path, F_OK) != 0 || (try? TripStore(path: path).sessions().count) != days * 4 {
            try build()
        }
        return try TripStore(path: path)
    }

    private static func build() throws {
        for suffix in ["", "-wal", "-shm", "-reserve"] { unlink(path + suffix) }
        let store = try TripStore(path: path, configuration: StoreConfiguration(durability: .syncAtCheckpoints))
        let driver = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let run = try store.beginRun(note: "year")
        var points: [StoredTripPoint] = []
        for day in 0..<days {
            for trip in 0..<4 {
                let start = t0 + Int64(day) * 86_400_000 + Int64(7 + trip * 3) * 3_600_000
                let seconds = trip == 1 ? 2_400 : 1_200
                let id = try store.openSession(driver: driver, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: start)
                points.removeAll(keepingCapacity: true)
                for second in 0..<seconds {
                    let elapsed = Double(second)
                    let time: Int64 = start + Int64(second) * 1_000
                    let latitude: Double = 48.137 + elapsed * 1e-4
                    points.append(StoredTripPoint(
                        session: id, utcMs: time, latitude: latitude, longitude: 11.575, speedMetersPerSecond: 11,
                        distanceMeters: elapsed * 11, fuelLiters: elapsed * 7e-4))
                }
                try store.appendTripPoints(points)
                let last = day == days - 1 && trip == 3
                if !last {
                    var metrics = TripMetrics()
                    metrics.distance = Meters(Double(seconds) * 11)
                    let record = SessionRecord(
                        driver: driver, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(Int64(seconds) * 1_000),
                        reason: .departed, stoppedAt: nil, driverLeftAt: nil, metrics: metrics)
                    try store.closeSession(id, record: record) { start + $0.value }
                }
            }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, bytesPerHour, walBytesPerHour, databaseBytesPerHour, fsyncsPerHour, pointsPerHour],
        warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 3)
    let path = "/tmp/fairfuel-benchmark-store.db"

    Benchmark("Six driving hours at 10 Hz GNSS into the store (Pi Zero 2 W profile)") { benchmark in
        let store = try Drive.store(path)
        let before = store.ioCounters!
        benchmark.startMeasurement()
        let points = try Drive.run(into: store)
        benchmark.stopMeasurement()
        let io = store.ioCounters!.since(before)
        let hours = UInt64(Drive.hours)
        benchmark.measurement(bytesPerHour, Int(io.bytesWritten / hours))
        benchmark.measurement(walBytesPerHour, Int(io.walBytesWritten / hours))
        benchmark.measurement(databaseBytesPerHour, Int(io.databaseBytesWritten / hours))
        benchmark.measurement(fsyncsPerHour, Int(io.syncs / hours))
        benchmark.measurement(pointsPerHour, points / Drive.hours)
    }

    Benchmark(
        "Resume decision at start-up on a year-old store (tripToContinue)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark in
        let store = try YearOldStore.open()
        let configuration = BoardProfile.piZero2W.monitorConfiguration
        benchmark.startMeasurement()
        let handed = try store.tripToContinue(motion: configuration.motion, session: configuration.session)
        benchmark.stopMeasurement()
        precondition(handed?.trip.isOpen == true, "the year-old store's newest trip is open")
    }

    for batch in [10, 1_000] {
        Benchmark(
            "appendTripPoints, \(batch)-point batches (synchronous=FULL)",
            configuration: .init(metrics: [.wallClock, pointsPerSecond], warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 10)
        ) { benchmark in
            let store = try Drive.store(path)
            let session = try store.openSession(
                driver: DriverID(1), driverName: "Alice", run: try store.beginRun(note: "insert"), startLinkMs: 0, startUTCMs: Drive.utcStart)
            var points: [StoredTripPoint] = []
            for i in 0..<6_000 {
                let second = Double(i)
                let time: Int64 = Drive.utcStart + Int64(i) * 1_000
                let latitude: Double = 48.137 + second * 1e-5
                let longitude: Double = 11.575 + Double(i % 100) * 1e-5
                points.append(StoredTripPoint(
                    session: session, utcMs: time, latitude: latitude, longitude: longitude, speedMetersPerSecond: Double(i % 30),
                    distanceMeters: second * 12, fuelLiters: second * 1e-3))
            }
            let clock = ContinuousClock()
            benchmark.startMeasurement()
            let start = clock.now
            var index = 0
            while index < points.count {
                try store.appendTripPoints(points[index..<min(points.count, index + batch)])
                index += batch
            }
            let elapsed = clock.now - start
            benchmark.stopMeasurement()
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            benchmark.measurement(pointsPerSecond, Int(Double(points.count) / seconds))
        }
    }
}
