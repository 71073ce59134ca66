import FairFuelCore
import FairFuelDomain
import FairFuelParsers
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

/// Writes what the domain reports into the store: sessions at once and durably,
/// trip points in batches from a fixed-capacity buffer.
///
/// When the store refuses writes (a full disk), session starts and ends and untracked
/// driving wait in memory, at most `pendingRecordsMax` of them, and go in as soon as a write
/// succeeds again; buffered trip points are thinned (every other one) first. Whatever could
/// not be kept is counted per kind in `losses`, logged once per episode and added to the
/// store's `store_losses` as soon as it accepts a write: never dropped silently.
public final class SessionRecorder {
    public let store: TripStore
    /// The store's row for this run of the service; nil while a full disk keeps start-up from
    /// writing it: it is written before the first session that goes in (`runNote`).
    public private(set) var run: Int64?
    private let runNote: String
    public let policy: TripPointFlushPolicy
    /// The calibration factor the domain's fuel is estimated with (changes on reload).
    public var fuelScale: Double
    private var directory: DriverDirectory
    private var utc = UTCAnchor()
    private var openSession: SessionID?
    private var buffer: [StoredTripPoint]
    private var lastFlushAt: LinkMilliseconds?
    /// The first store error met; recording goes on (the session stays in memory) and the service retries.
    public private(set) var firstError: StoreError?
    public private(set) var errorCount = 0
    public private(set) var sessionsStarted = 0
    public private(set) var sessionsEnded = 0
    public private(set) var pointsWritten = 0
    /// Trip points dropped because the buffer was full while the store refused writes.
    public var pointsDropped: Int { losses.tripPoints }
    /// What could not be kept since this recorder started, per kind.
    public private(set) var losses = StoreLosses()
    /// The part of `losses` not yet added to the store's counters.
    public private(set) var unsavedLosses = StoreLosses()
    /// Most session starts, ends and untracked records held while the store refuses writes.
    public let pendingRecordsMax: Int
    /// Where the recorder says that the store refuses writes, what it lost, and that it caught up.
    public var logger: Logger = .disabled
    /// The store refused the last write (a full disk, most likely); cleared by the next success.
    public private(set) var storeRefusing = false
    private var lossLoggedThisEpisode = false
    private var episodeHadLoss = false
    private var episodeSaved = false
    /// Untracked driving the store refused, oldest first; retried with the session ends.
    private var pendingUntracked: [(fromUTCMs: Int64, toUTCMs: Int64, distanceMeters: Double, fuelLiters: Double, candidates: [DriverID])] = []
    /// A session start the store refused (a full disk); retried before every write. Its trip
    /// points wait in the buffer under session 0 until it goes in.
    private var pendingStart: (driver: DriverID, name: String, at: LinkMilliseconds)?
    /// Session ends the store refused, oldest first; retried before every write. A nil session
    /// never got its start in: it is opened first (its points are lost, its summary is not).
    private var pendingEnds: [(session: SessionID?, start: (driver: DriverID, name: String, at: LinkMilliseconds)?, record: SessionRecord, anchor: UTCAnchor)] = []
    /// Session ends given up because `pendingRecordsMax` records were already waiting for the store.
    public var sessionsLost: Int { losses.sessionEnds }
    /// The distance of the untracked records counted lost (the store joins back-to-back
    /// records into one drive, so distances, not record counts, add up).
    public private(set) var untrackedMetersLost = 0.0
    /// Sessions taken up again without a tap (continuity rules), reopened or new.
    public private(set) var sessionsResumed = 0
    /// The session a continuation would reopen: the store's last trip at start-up, then
    /// each session that ends by departure.
    public private(set) var continuationSession: SessionID?

    /// Untracked driving reported before UTC was known, waiting for the anchor (bounded by `pendingRecordsMax`).
    private var unstampedUntracked: [FairFuelDomain.UntrackedDriving] = []
    /// Untracked driving held for the start-up trip: removed from the store when the trip takes it back.
    private var heldUntracked: [Int64] = []
    /// Unknown tags recorded lately (UID, link time), at most `unknownTagsRemembered`: a card held
    /// on the reader or tapped again and again is one event per `unknownTagRepeatMs`, and any
    /// run of taps at most one event per `unknownTagSpacingMs`, so that a child with a bank
    /// card cannot fill the event log and wear the card with a synced write per tap.
    private var unknownTagsRecorded: [(uid: TagUID, at: LinkMilliseconds)] = []
    static let unknownTagsRemembered = 8
    static let unknownTagRepeatMs: Int64 = 600_000
    static let unknownTagSpacingMs: Int64 = 60_000
    /// Unknown taps not written to the event log by that rule.
    public private(set) var unknownTagsNotRecorded = 0

    /// `continuing`: the session of the trip handed to the domain with `DrivingMonitor.offer`;
    /// `holding`: the untracked driving it would take back.
    public init(
        store: TripStore, run: Int64?, runNote: String = "service", directory: DriverDirectory, policy: TripPointFlushPolicy,
        fuelScale: Double = 1, pendingRecordsMax: Int = 64, continuing: SessionID? = nil, holding held: [Int64] = []
    ) {
        continuationSession = continuing
        heldUntracked = held
        self.pendingRecordsMax = max(1, pendingRecordsMax)
        self.fuelScale = fuelScale
        self.store = store
        self.run = run
        self.runNote = runNote
        self.directory = directory
        self.policy = policy
        buffer = []
        buffer.reserveCapacity(policy.flushPoints)
        pendingEnds.reserveCapacity(self.pendingRecordsMax)
        pendingUntracked.reserveCapacity(self.pendingRecordsMax)
    }

    /// Session starts, ends and untracked records waiting for the store.
    public var pendingRecordCount: Int { pendingEnds.count + pendingUntracked.count + (pendingStart == nil ? 0 : 1) }

    /// Whether records wait for the store (the service retries every tick until they are in).
    public var isBehind: Bool { pendingRecordCount > 0 || !unsavedLosses.isEmpty || run == nil }

    public func update(directory: DriverDirectory) { self.directory = directory }

    /// The session being recorded, if any.
    public var currentSession: SessionID? { openSession }

    /// Trip points waiting to be written; never more than `policy.flushPoints`.
    public var bufferedPointCount: Int { buffer.count }
    /// Room reserved for them at init; the buffer never grows past it.
    public var bufferCapacity: Int { buffer.capacity }

    public func record(_ output: DomainOutput) {
        switch output {
        case let .utcAnchored(offset, _):
            utc = UTCAnchor(offsetMs: offset)
            // Without its run row yet (a full disk at start-up), the run is anchored when it is written.
            if let run { attempt { try store.anchorRun(run, offsetMs: offset) } }
            // Untracked driving reported while UTC was unknown is stamped now.
            let waiting = unstampedUntracked
            unstampedUntracked.removeAll(keepingCapacity: true)
            for chunk in waiting { record(.untrackedDriving(chunk)) }
        case .utcUnknown:
            flush()
            utc = UTCAnchor()
        case let .sessionStarted(driver, at):
            flush()
            sessionsStarted += 1
            let name = directory.name(of: driver) ?? "driver \(driver.rawValue)"
            openSession = nil
            continuationSession = nil
            heldUntracked = []
            pendingStart = (driver, name, at)
            retryPending()
        case let .sessionResumed(resumption):
            flush()
            sessionsResumed += 1
            if resumption.continuing, let id = continuationSession {
                let held = heldUntracked
                if let index = pendingEnds.firstIndex(where: { $0.session == id }) {
                    // Its end never reached the store: it is still open there.
                    pendingEnds.remove(at: index)
                    attempt { try store.markContinued(id, from: nil, absorbing: held) }
                } else {
                    let checkpoint = utc.utc(resumption.movedOffAt).map {
                        TripCheckpoint(metrics: resumption.measured, movedOffUTCMs: $0.millisecondsSinceEpoch)
                    }
                    attempt { try store.reopenSession(id, absorbing: held, checkpoint: checkpoint) }
                }
                openSession = id
            } else {
                sessionsStarted += 1
                let name = directory.name(of: resumption.driver) ?? "driver \(resumption.driver.rawValue)"
                openSession = nil
                // The new session begins where the car moved off, not where the evidence came
                // (the decision window, or a GNSS outage at the car park's exit, is driving too).
                pendingStart = (resumption.driver, name, resumption.startedAt)
                retryPending()
                if let id = openSession {
                    let previous = continuationSession, held = heldUntracked
                    attempt { try store.markContinued(id, from: previous, absorbing: held) }
                }
            }
            continuationSession = nil
            heldUntracked = []
        case .interruptedTripEnded:
            if let id = continuationSession {
                attempt { try store.endSessionsLeftOpen(only: id) }
            }
        case let .tripPoint(point):
            guard openSession != nil || pendingStart != nil, let stamp = utc.utc(point.at) else { return }
            let session = openSession ?? SessionID(0)
            if buffer.count >= policy.flushPoints {
                flush()
                if buffer.count >= policy.flushPoints {
                    // The store is refusing writes: thin the fixed buffer (the track keeps its
                    // shape at half the rate), count the loss.
                    lose(.tripPoint, thinBuffer())
                }
            }
            buffer.append(StoredTripPoint(
                session: session, utcMs: stamp.millisecondsSinceEpoch, latitude: point.latitude, longitude: point.longitude,
                speedMetersPerSecond: point.speed.value, distanceMeters: point.distance.value, fuelLiters: point.fuel.value))
            if lastFlushAt == nil { lastFlushAt = point.at }
            if buffer.count >= policy.flushPoints || point.at.value - lastFlushAt!.value >= policy.flushIntervalMs {
                flush()
                lastFlushAt = point.at
            }
        case let .sessionEnded(record):
            flush()
            sessionsEnded += 1
            if openSession != nil || pendingStart != nil {
                if pendingStart != nil {
                    lose(.tripPoint, buffer.count { $0.session == SessionID(0) })
                    buffer.removeAll { $0.session == SessionID(0) }
                }
                if pendingEnds.count + pendingUntracked.count >= pendingRecordsMax {
                    // The queue is at its bound: this one is counted, the ones waiting keep their turn.
                    if pendingStart != nil { lose(.sessionStart, 1) }
                    lose(.sessionEnd, 1)
                } else {
                    pendingEnds.append((openSession, pendingStart, record, utc))
                }
                pendingStart = nil
                retryPending()
            }
            continuationSession = record.reason == .departed ? openSession : nil
            heldUntracked = []
            openSession = nil
        case let .untrackedDriving(chunk):
            guard let from = utc.utc(chunk.from), let to = utc.utc(chunk.to) else {
                // No UTC yet (before the first fix, or after an MCU restart): it waits for the anchor.
                if unstampedUntracked.count < pendingRecordsMax {
                    unstampedUntracked.append(chunk)
                } else {
                    lose(.untracked, 1)
                    untrackedMetersLost += chunk.distance.value
                }
                return
            }
            if pendingUntracked.count + pendingEnds.count >= pendingRecordsMax {
                lose(.untracked, 1)
                untrackedMetersLost += chunk.distance.value
            } else {
                pendingUntracked.append((
                    from.millisecondsSinceEpoch, to.millisecondsSinceEpoch, chunk.distance.value, chunk.fuel.value,
                    chunk.candidates.isEmpty ? [] : chunk.candidates.drivers))
            }
            retryPending()
        case let .unknownTag(uid, at):
            guard shouldRecordUnknownTag(uid, at: at) else {
                unknownTagsNotRecorded += 1
                break
            }
            if !attempt({ try store.logEvent(kind: "unknown_tag", detail: uid.description, utcMs: utc.utc(at)?.millisecondsSinceEpoch) }) {
                lose(.event, 1)
            }
        case .feedback, .transition, .receiverTimeRejected:
            break
        }
    }

    /// Most `link_errors` rows the event log keeps: a day of a line noisy every minute.
    public static let linkErrorEventsKept = 1_440

    /// Writes a summary of link errors (the core hands over one a minute at most) to the event
    /// log, as a `link_errors` row at link time `at`: `detail` names the counts (`crc_error 3,
    /// cobs_error 1`). At most `linkErrorEventsKept` such rows are kept, the oldest going first.
    public func recordLinkErrors(_ detail: String, at: LinkMilliseconds) {
        let written = attempt {
            try store.logEvent(
                kind: "link_errors", detail: detail, utcMs: utc.utc(at)?.millisecondsSinceEpoch, keepingAtMost: Self.linkErrorEventsKept)
        }
        if !written { lose(.event, 1) }
    }

    private func shouldRecordUnknownTag(_ uid: TagUID, at: LinkMilliseconds) -> Bool {
        let recent = { (earlier: LinkMilliseconds, limit: Int64) in at.value >= earlier.value && at.value - earlier.value < limit }
        if unknownTagsRecorded.contains(where: { $0.uid == uid && recent($0.at, Self.unknownTagRepeatMs) }) { return false }
        if let last = unknownTagsRecorded.last, recent(last.at, Self.unknownTagSpacingMs) { return false }
        if unknownTagsRecorded.count == Self.unknownTagsRemembered { unknownTagsRecorded.removeFirst() }
        unknownTagsRecorded.append((uid, at))
        return true
    }

    /// Writes the buffered trip points (after any session start or end the store refused before).
    public func flush() {
        retryPending()
        saveLosses()
        guard !buffer.isEmpty, pendingStart == nil else { return }
        var written = false
        attempt {
            try store.appendTripPoints(buffer)
            written = true
        }
        if written {
            pointsWritten += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// The service's once-a-second retry: writes what waits for the store, if anything does, then
    /// takes the disk reserve back if it was given up and there is room again (no restart needed;
    /// a WAL grown meanwhile is given back first, which may be what lets the next write in).
    public func retryStoreWrites() {
        if isBehind { flush() }
        store.retakeDiskReserveIfMissing()
    }

    /// Writes the session start and ends the store refused, in order, until one fails again.
    private func retryPending() {
        // The run's row first (start-up on a full disk could not write it): the sessions refer to it.
        if run == nil, !attempt({ _ = try storedRun() }) { return }
        if let start = pendingStart {
            var id: SessionID?
            attempt {
                id = try store.openSession(
                    driver: start.driver, driverName: start.name, run: try storedRun(), startLinkMs: start.at.value,
                    startUTCMs: utc.utc(start.at)?.millisecondsSinceEpoch, fuelScale: fuelScale)
            }
            guard let id else { return }
            pendingStart = nil
            openSession = id
            for index in buffer.indices where buffer[index].session == SessionID(0) { buffer[index].session = id }
        }
        defer { if storeRefusing == false && pendingRecordCount == 0 { endEpisode() } }
        while let end = pendingEnds.first {
            var done = false
            attempt {
                var session = end.session
                if session == nil, let start = end.start {
                    session = try store.openSession(
                        driver: start.driver, driverName: start.name, run: try storedRun(), startLinkMs: start.at.value,
                        startUTCMs: end.anchor.utc(start.at)?.millisecondsSinceEpoch, fuelScale: fuelScale)
                    pendingEnds[0].session = session
                }
                if let session { try store.closeSession(session, record: end.record, utc: { end.anchor.utc($0)?.millisecondsSinceEpoch }) }
                done = true
            }
            guard done else { return }
            pendingEnds.removeFirst()
        }
        while let untracked = pendingUntracked.first {
            let done = attempt {
                try store.addUntracked(
                    fromUTCMs: untracked.fromUTCMs, toUTCMs: untracked.toUTCMs,
                    distanceMeters: untracked.distanceMeters, fuelLiters: untracked.fuelLiters, fuelScale: fuelScale,
                    candidates: untracked.candidates)
            }
            guard done else { return }
            pendingUntracked.removeFirst()
        }
    }

    /// This run's row in the store, written now if start-up could not (a full disk), with the
    /// UTC anchor known so far.
    private func storedRun() throws -> Int64 {
        if let run { return run }
        let begun = try store.beginRun(note: runNote)
        run = begun
        if let offset = utc.offsetMs { try store.anchorRun(begun, offsetMs: offset) }
        logger.notice("store: run \(begun) written (start-up could not: the disk was full)")
        return begun
    }

    /// Last try at shutdown: writes what waits (spending the reserve), counts what still cannot
    /// go in as lost, and saves the counters if the store takes them. Returns everything lost
    /// since start-up and whether it is all in the store's counters.
    public func finish() -> (lost: StoreLosses, saved: Bool) {
        flush()
        if isBehind || !buffer.isEmpty {
            store.relieveDiskPressure()
            flush()
        }
        if pendingStart != nil {
            // Its end never came (the service stops while it was open): the start is what is lost.
            lose(.sessionStart, 1)
            lose(.tripPoint, buffer.count { $0.session == SessionID(0) })
            buffer.removeAll { $0.session == SessionID(0) }
            pendingStart = nil
        }
        for end in pendingEnds {
            if end.session == nil && end.start != nil { lose(.sessionStart, 1) }
            lose(.sessionEnd, 1)
        }
        pendingEnds.removeAll()
        lose(.untracked, pendingUntracked.count)
        for untracked in pendingUntracked { untrackedMetersLost += untracked.distanceMeters }
        pendingUntracked.removeAll()
        // Never stamped (no fix since UTC was lost): counted, as nothing can say when it was.
        lose(.untracked, unstampedUntracked.count)
        for chunk in unstampedUntracked { untrackedMetersLost += chunk.distance.value }
        unstampedUntracked.removeAll()
        lose(.tripPoint, buffer.count)
        buffer.removeAll(keepingCapacity: true)
        saveLosses()
        return (losses, unsavedLosses.isEmpty)
    }

    /// Counts `count` records of `kind` lost; the first loss of an episode is logged at once.
    private func lose(_ kind: StoreLossKind, _ count: Int) {
        guard count > 0 else { return }
        losses[kind] += count
        unsavedLosses[kind] += count
        episodeHadLoss = true
        if !lossLoggedThisEpisode {
            lossLoggedThisEpisode = true
            logger.error("store refusing writes: lost \(count) \(kind.label)(s) "
                + "(\(pendingRecordCount) record(s) held, at most \(pendingRecordsMax)); counted in `fairfuel status`")
        }
    }

    /// Drops every other buffered point (the first and last stay); returns how many went.
    private func thinBuffer() -> Int {
        guard buffer.count > 2 else { return 0 }
        var kept = 1
        for index in 1..<buffer.count where index % 2 == 0 || index == buffer.count - 1 {
            buffer[kept] = buffer[index]
            kept += 1
        }
        let removed = buffer.count - kept
        buffer.removeLast(removed)
        return removed
    }

    /// Adds the unsaved losses to the store's counters when it takes writes again.
    private func saveLosses() {
        guard !unsavedLosses.isEmpty else { return }
        let saving = unsavedLosses
        if attempt({ try store.addLosses(saving, newEpisode: !episodeSaved) }) {
            unsavedLosses = StoreLosses()
            episodeSaved = true
        }
    }

    private func endEpisode() {
        guard lossLoggedThisEpisode || episodeHadLoss else { return }
        saveLosses()
        guard unsavedLosses.isEmpty else { return }
        logger.notice("store writable again: caught up; lost since start-up: \(losses)")
        lossLoggedThisEpisode = false
        episodeHadLoss = false
        episodeSaved = false
    }

    @discardableResult
    private func attempt(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            if storeRefusing { logger.notice("store accepts writes again; catching up \(pendingRecordCount) record(s)") }
            storeRefusing = false
            return true
        } catch {
            errorCount += 1
            if firstError == nil { firstError = error as? StoreError ?? .invalid("\(error)") }
            if !storeRefusing {
                storeRefusing = true
                logger.warning("store refusing writes (\(error)); holding sessions in memory (at most \(pendingRecordsMax)), thinning buffered points")
            }
            return false
        }
    }
}
