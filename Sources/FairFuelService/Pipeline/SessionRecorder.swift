import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelServiceCore
import FairFuelStore

/// When buffered trip points are written: every `flushIntervalMs` of link time or `flushPoints` points.
public struct TripPointFlushPolicy: Sendable, Equatable {
    public var flushIntervalMs: Int64
    public var flushPoints: Int
    public init(flushIntervalMs: Int64 = 10_000, flushPoints: Int = 100) {
        self.flushIntervalMs = flushIntervalMs
        self.flushPoints = flushPoints
    }
}

/// Writes what the domain reports into the store: `RecorderCore` decides what to write and
/// what waits (a full disk); this shell performs its intents on the `TripStore` and hands back
/// the store's answers. The core's figures read through it (`recorder.pendingRecordCount`).
@dynamicMemberLookup
public final class SessionRecorder {
    public let store: TripStore
    public let core: RecorderCore
    public let policy: TripPointFlushPolicy
    /// The first store error met; recording goes on (the session stays in memory) and the service retries.
    public private(set) var firstError: StoreError?

    /// `continuing`: the session of the trip handed to the domain with `DrivingMonitor.offer`;
    /// `holding`: the untracked driving it would take back.
    public init(
        store: TripStore, run: Int64?, runNote: String = "service", directory: DriverDirectory, policy: TripPointFlushPolicy,
        fuelScale: Double = 1, pendingRecordsMax: Int = 64, continuing: SessionID? = nil, holding held: [Int64] = []
    ) {
        self.store = store
        self.policy = policy
        core = RecorderCore(
            run: run, runNote: runNote, directory: directory, flushIntervalMs: policy.flushIntervalMs, flushPoints: policy.flushPoints,
            fuelScale: fuelScale, pendingRecordsMax: pendingRecordsMax, continuing: continuing, holding: held)
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<RecorderCore, Value>) -> Value { core[keyPath: keyPath] }
    public subscript<Value>(dynamicMember keyPath: KeyPath<RecorderCore.Counts, Value>) -> Value { core.counts[keyPath: keyPath] }

    /// Where the recorder says that the store refuses writes, what it lost, and that it caught up.
    public var logger: Logger {
        get { core.logger }
        set { core.logger = newValue }
    }

    /// The calibration factor the domain's fuel is estimated with (changes on reload).
    public var fuelScale: Double {
        get { core.fuelScale }
        set { core.fuelScale = newValue }
    }

    /// Trip points dropped because the buffer was full while the store refused writes.
    public var pointsDropped: Int { core.losses.tripPoints }
    /// Session ends given up because `pendingRecordsMax` records were already waiting for the store.
    public var sessionsLost: Int { core.losses.sessionEnds }

    public func update(directory: DriverDirectory) { core.update(directory: directory) }

    public func record(_ output: DomainOutput) { core.record(output, perform) }

    public func recordLinkErrors(_ counts: LinkCounters, at: LinkMilliseconds) { core.recordLinkErrors(counts, at: at, perform) }

    /// Writes the buffered trip points (after any session start or end the store refused before).
    public func flush() { core.flush(perform) }

    /// The service's once-a-second retry: writes what waits for the store, if anything does, then
    /// takes the disk reserve back if it was given up and there is room again (no restart needed;
    /// a WAL grown meanwhile is given back first, which may be what lets the next write in).
    public func retryStoreWrites() {
        if core.isBehind { core.flush(perform) }
        store.retakeDiskReserveIfMissing()
    }

    /// Last try at shutdown (see `RecorderCore.finish`).
    public func finish() -> (lost: StoreLosses, saved: Bool) { core.finish(perform) }

    private func perform(_ intent: StoreIntent) -> StoreReply {
        do throws(StoreError) {
            switch intent {
            case let .beginRun(note):
                return .runBegun(try store.beginRun(note: note))
            case let .anchorRun(run, offsetMs):
                try store.anchorRun(run, offsetMs: offsetMs)
            case let .openSession(driver, driverName, run, startLinkMs, startUTCMs, fuelScale):
                return .sessionOpened(try store.openSession(
                    driver: driver, driverName: driverName, run: run, startLinkMs: startLinkMs, startUTCMs: startUTCMs, fuelScale: fuelScale))
            case let .closeSession(session, record, anchor):
                try store.closeSession(session, record: record, utc: { anchor.utc($0)?.millisecondsSinceEpoch })
            case let .markContinued(session, previous, held):
                try store.markContinued(session, from: previous, absorbing: held)
            case let .reopenSession(session, held, checkpoint):
                try store.reopenSession(session, absorbing: held, checkpoint: checkpoint)
            case let .endSessionsLeftOpen(session):
                _ = try store.endSessionsLeftOpen(only: session)
            case let .appendTripPoints(points):
                try store.appendTripPoints(points)
            case let .addUntracked(untracked, fuelScale):
                try store.addUntracked(
                    fromUTCMs: untracked.fromUTCMs, toUTCMs: untracked.toUTCMs, distanceMeters: untracked.distanceMeters,
                    fuelLiters: untracked.fuelLiters, fuelScale: fuelScale, candidates: untracked.candidates)
            case let .logEvent(kind, detail, utcMs, kept):
                try store.logEvent(kind: kind, detail: detail, utcMs: utcMs, keepingAtMost: kept)
            case let .addLosses(losses, newEpisode):
                try store.addLosses(losses, newEpisode: newEpisode)
            case .relieveDiskPressure:
                store.relieveDiskPressure()
            }
            return .done
        } catch {
            if firstError == nil { firstError = error }
            return .refused("\(error)")
        }
    }
}
