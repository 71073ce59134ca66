import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import FairFuelStore

/// What a replay did.
public struct ReplayReport: Sendable {
    public var link: LinkCounters
    public var sessionsStarted: Int
    public var sessionsEnded: Int
    public var pointsWritten: Int
    public var sessionsEndedAtStartup: Int
    public var lastTimeMs: UInt64
    /// Sessions taken up again without a tap (continuity rules).
    public var sessionsResumed: Int = 0
    /// Trips faster than any car: the capture was probably recorded from a sped-up simulator.
    public var speeds = ReplaySpeedCheck()
    /// Fixes whose receiver time was off the capture's time (`UTCAnchor`), left out of the trips.
    public var badEpochs = 0
}

/// Where a replay stands, for progress lines of long (soak) replays.
public struct ReplaySnapshot: Sendable, Equatable {
    /// Capture time reached: a multiple of the progress interval, or the last line's time at the end.
    public var captureMs: UInt64
    /// Frames delivered by the decoder so far.
    public var frames: UInt64
    public var sessionsStarted: Int
    public var sessionsEnded: Int
    public var pointsWritten: Int
    /// The snapshot taken after the last line.
    public var isFinal: Bool
}

/// Asks a replay for a snapshot every `everyMs` of capture time, and one at the end.
public struct ReplayProgress {
    public var everyMs: Int64
    public var report: (ReplaySnapshot) -> Void

    public init(everyMs: Int64, report: @escaping (ReplaySnapshot) -> Void) {
        precondition(everyMs > 0, "a progress interval is positive")
        self.everyMs = everyMs
        self.report = report
    }
}

/// Runs a capture through the live path (decoder, ingest, domain, recorder) into a store,
/// as fast as it can; time comes from the capture only, so the result is always the same.
public struct Replay {
    /// The capture file; `-` reads standard input.
    public let capturePath: String
    public let store: TripStore
    public var configuration: MonitorConfiguration
    public var flushPolicy: TripPointFlushPolicy

    public var nmea: NMEAConfiguration
    /// The store's page cache budget in KiB, applied to `store` when the replay starts, as the service opens its own.
    public var pageCacheKiB: Int
    /// Snapshots while replaying; nil: none.
    public var progress: ReplayProgress?
    /// The capture's fingerprint when the caller has it already (`CaptureReading.fingerprint()`);
    /// nil: `run()` reads it.
    public var captureFingerprint: String?
    /// Replays a capture this store has replayed before (by default refused: its trips would be stored, and billed, twice).
    public var replayingAgain = false

    /// Sizes come from `board` (the Pi Zero 2 W by default), as in the live service.
    public init(capturePath: String, store: TripStore, board: BoardProfile = .piZero2W) {
        self.capturePath = capturePath
        self.store = store
        configuration = board.monitorConfiguration
        flushPolicy = board.flushPolicy
        nmea = board.nmeaConfiguration
        pageCacheKiB = board.store.pageCacheKiB
    }

    /// Replays the capture file (or standard input), streaming it with constant memory.
    public func run() throws -> ReplayReport {
        let reading = CaptureReading(path: capturePath, direction: .rx)
        let fingerprint = try captureFingerprint ?? reading.fingerprint()
        if let fingerprint, !replayingAgain, let earlier = try store.replayRun(ofCapture: fingerprint) {
            throw ReplayError.alreadyReplayed(capture: reading.displayName, run: earlier.id, note: earlier.note)
        }
        return try run(note: "replay \(reading.displayName)", captureFingerprint: fingerprint) { feed throws(CaptureReadError) in
            try reading.forEachRead(feed)
        }
    }

    /// Replays serial reads handed over in time order by `reads` (an in-process generator,
    /// as the soak benchmark runs it) through the same path as a capture.
    public func run(
        note: String, captureFingerprint: String? = nil,
        reads: (_ feed: (_ timeMs: UInt64, _ bytes: ArraySlice<UInt8>) -> Void) throws -> Void
    ) throws -> ReplayReport {
        try store.limitPageCache(kib: pageCacheKiB)
        // Like the service: the last trip may go on (continuity rules); older open sessions end.
        let openBefore = try store.openSessionCount()
        let resumable = try store.tripToContinue(motion: configuration.motion, session: configuration.session)
        let endedAtStartup = openBefore - (resumable?.trip.isOpen == true ? 1 : 0)
        let run = try store.beginRun(note: note, captureFingerprint: captureFingerprint)
        let directory = try store.directory()
        let vehicle = try store.vehicle()
        var monitor = DrivingMonitor(configuration: configuration, directory: directory, fuel: try FuelSetup.estimator(for: vehicle))
        if let resumable { monitor.offer(resumable.trip) }
        var ingest = LinkIngest(monitor: monitor, nmea: nmea)
        let recorder = SessionRecorder(
            store: store, run: run, directory: directory, policy: flushPolicy, fuelScale: vehicle.fuelScale,
            continuing: resumable?.session, holding: resumable?.heldUntracked ?? [])
        var decoder = FrameDecoder(sender: .mcu)
        var speeds = ReplaySpeedCheck()
        func record(_ output: DomainOutput) {
            speeds.observe(output)
            recorder.record(output)
        }
        var lastTime: UInt64 = 0
        let every = progress.map { UInt64($0.everyMs) } ?? .max
        var nextSnapshot = every
        func snapshot(at time: UInt64, final: Bool) -> ReplaySnapshot {
            ReplaySnapshot(
                captureMs: time, frames: decoder.counters.frames, sessionsStarted: recorder.sessionsStarted,
                sessionsEnded: recorder.sessionsEnded, pointsWritten: recorder.pointsWritten, isFinal: final)
        }
        try reads { timeMs, bytes in
            // A snapshot describes everything before its time: taken before the first line at or after it.
            while timeMs >= nextSnapshot, let progress {
                progress.report(snapshot(at: nextSnapshot, final: false))
                nextSnapshot += every
            }
            lastTime = timeMs
            decoder.decode(bytes) { output in
                guard case let .frame(frame) = output else { return }
                ingest.handle(frame, at: LinkMilliseconds(Int64(timeMs)), record)
            }
        }
        decoder.finish()
        ingest.finish(at: LinkMilliseconds(Int64(lastTime)), record)
        recorder.flush()
        progress?.report(snapshot(at: lastTime, final: true))
        if let error = recorder.firstError { throw error }
        return ReplayReport(
            link: decoder.counters, sessionsStarted: recorder.sessionsStarted, sessionsEnded: recorder.sessionsEnded,
            pointsWritten: recorder.pointsWritten, sessionsEndedAtStartup: endedAtStartup, lastTimeMs: lastTime,
            sessionsResumed: recorder.sessionsResumed, speeds: speeds, badEpochs: ingest.monitor.utc.badEpochCount)
    }
}

/// Why a replay did not start.
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    /// The store has replayed this capture before, in `run`.
    case alreadyReplayed(capture: String, run: Int64, note: String)

    public var description: String {
        switch self {
        case let .alreadyReplayed(capture, run, note):
            "\(capture) was replayed into this store before (run \(run), \(note)): its trips are there, and replaying it "
                + "again would store and bill them twice; nothing was replayed (--again replays it all the same)"
        }
    }
}

/// Builds the fuel estimator from the stored vehicle profile and its calibration.
public enum FuelSetup {
    public static func estimator(for vehicle: VehicleProfile) throws -> FuelEstimator {
        try vehicle.fuelSettings.estimator()
    }
}
