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
    /// Fixes whose receiver time was off the MCU's clock (`UTCAnchor`), left out of the trips.
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

/// Runs a capture through the live path into a store, as fast as it can: the service's own
/// core and recorder (`ServiceAssembly`, as the runtime builds them), the capture's time handed
/// to the core as the runtime hands it the host's clock (the core's `LinkClock` turns the MCU's
/// stamps into domain time), and time passing as the runtime's poll loop lets it pass. Time
/// comes from the capture only, so the result is always the same.
public struct Replay {
    /// The capture file; `-` reads standard input.
    public let capturePath: String
    public let store: TripStore
    /// Sizes, thresholds and the store's page cache, as the live service on this board has them.
    public var board: BoardProfile
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
        self.board = board
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
        // The service opens its store with this cache; a replay's caller opened this one.
        try store.limitPageCache(kib: board.store.pageCacheKiB)
        let assembly = try ServiceAssembly(board: board, store: store) { store in
            try store.beginRun(note: note, captureFingerprint: captureFingerprint)
        }
        let core = assembly.core
        let recorder = assembly.recorder
        var speeds = ReplaySpeedCheck()
        var loop: ReplayLoop?
        func perform(_ action: ServiceAction) {
            if case let .record(output) = action { speeds.observe(output) }
            // The store's side as the service performs it; the rest has no listener here (the capture
            // holds what the MCU said, with the port open throughout; nobody asks, nothing publishes).
            assembly.performOnStore(action, store: store)
        }
        var lastTime: UInt64 = 0
        let every = progress.map { UInt64($0.everyMs) } ?? .max
        var nextSnapshot = every
        func snapshot(at time: UInt64, final: Bool) -> ReplaySnapshot {
            ReplaySnapshot(
                captureMs: time, frames: core.linkCounters.frames, sessionsStarted: recorder.sessionsStarted,
                sessionsEnded: recorder.sessionsEnded, pointsWritten: recorder.pointsWritten, isFinal: final)
        }
        try reads { timeMs, bytes in
            // A snapshot describes everything before its time: taken before the first line at or after it.
            while timeMs >= nextSnapshot, let progress {
                progress.report(snapshot(at: nextSnapshot, final: false))
                nextSnapshot += every
            }
            lastTime = timeMs
            let now = LinkMilliseconds(Int64(timeMs))
            if loop == nil { loop = ReplayLoop(core: core, startingAt: now, perform) }
            loop?.read(bytes, at: now, perform)
        }
        loop?.finish(perform)
        core.finish(at: LinkMilliseconds(Int64(lastTime)), perform)
        recorder.flush()
        progress?.report(snapshot(at: lastTime, final: true))
        if let error = recorder.firstError { throw error }
        return ReplayReport(
            link: core.linkCounters, sessionsStarted: recorder.sessionsStarted, sessionsEnded: recorder.sessionsEnded,
            pointsWritten: recorder.pointsWritten, sessionsEndedAtStartup: assembly.sessionsEndedAtStartup, lastTimeMs: lastTime,
            sessionsResumed: recorder.sessionsResumed, speeds: speeds, badEpochs: core.ingest.monitor.utc.badEpochCount)
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
