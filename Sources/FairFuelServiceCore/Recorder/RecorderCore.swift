import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// What to write into the store for the domain's output, without the store: domain output in,
/// `StoreIntent`s out to the shell's performer, whose `StoreReply` comes straight back.
/// Sessions go in at once, trip points in batches from a fixed-capacity buffer.
///
/// When the store refuses writes (a full disk), session starts and ends and untracked driving
/// wait here, at most `pendingRecordsMax` of them, and go in as soon as a write succeeds
/// again; buffered trip points are thinned (every other one) first. Whatever could not be kept
/// is counted per kind in `losses`, logged once per episode and added to the store's counters
/// as soon as it accepts a write: never dropped silently.
public final class RecorderCore {
    /// The store's row for this run; nil while a full disk kept start-up from writing it: it is
    /// written before the first session that goes in (`runNote`).
    public private(set) var run: Int64?
    private let runNote: String
    /// Trip points are written every `flushIntervalMs` of link time or `flushPoints` points.
    public let flushIntervalMs: Int64
    public let flushPoints: Int
    /// The calibration factor the domain's fuel is estimated with (changes on reload).
    public var fuelScale: Double
    private var directory: DriverDirectory
    /// UTC as the domain anchored it, from its outputs; session ends keep the one they ended under.
    private var utc = UTCAnchor()
    private var openSession: SessionID?
    private var buffer: [StoredTripPoint]
    private var lastFlushAt: LinkMilliseconds?
    /// Store refusals met (a full disk, an error); recording goes on and the shell retries.
    public private(set) var errorCount = 0
    public private(set) var counts = Counts()
    /// What could not be kept since start-up, and the part of it not yet in the store's counters.
    public private(set) var losses = StoreLosses()
    public private(set) var unsavedLosses = StoreLosses()
    /// Most session starts, ends and untracked records held while the store refuses writes.
    public let pendingRecordsMax: Int
    /// Where the recorder says that the store refuses writes, what it lost, and that it caught up.
    public var logger: Logger = .disabled
    /// The store refused the last write; cleared by the next success.
    public private(set) var storeRefusing = false
    private var episode = Episode()
    /// What waits for the store (or, untracked driving, for UTC).
    private var pending = Pending()
    /// The session a continuation would reopen: the store's last trip at start-up, then each
    /// session that ends by departure; and the untracked rows it would take back.
    public private(set) var continuationSession: SessionID?
    private var heldUntracked: [Int64] = []

    /// What went through, since start-up.
    public struct Counts: Sendable, Equatable {
        public var sessionsStarted = 0
        public var sessionsEnded = 0
        /// Sessions taken up again without a tap (continuity rules), reopened or new.
        public var sessionsResumed = 0
        public var pointsWritten = 0
        /// The distance of the untracked records counted lost (the store joins back-to-back
        /// records into one drive, so distances, not record counts, add up).
        public var untrackedMetersLost = 0.0
    }

    /// A full-disk episode: from the first refusal until everything waiting is in.
    private struct Episode {
        var lossLogged = false
        var hadLoss = false
        var lossesSaved = false
    }

    private struct Pending {
        /// A session start the store refused; retried before every write. Its trip points wait
        /// in the buffer under session 0 until it goes in.
        var start: Start?
        /// Session ends the store refused, oldest first. A nil session never got its start in:
        /// it is opened first (its points are lost, its summary is not).
        var ends: [End] = []
        /// Untracked driving the store refused, oldest first; retried after the session ends.
        var untracked: [StoreIntent.UntrackedRecord] = []
        /// Untracked driving reported before UTC was known, waiting for the anchor (bounded by `pendingRecordsMax`).
        var unstamped: [UntrackedDriving] = []
    }

    private struct Start {
        var driver: DriverID
        var name: String
        var at: LinkMilliseconds
    }

    private struct End {
        var session: SessionID?
        var start: Start?
        var record: SessionRecord
        var anchor: UTCAnchor
    }

    /// A refusal inside a group of writes that succeed or fail together.
    private struct Refusal: Error {
        var reason: String
    }

    /// `continuing`: the session of the trip handed to the domain with `DrivingMonitor.offer`;
    /// `holding`: the untracked driving it would take back.
    public init(
        run: Int64?, runNote: String = "service", directory: DriverDirectory, flushIntervalMs: Int64, flushPoints: Int,
        fuelScale: Double = 1, pendingRecordsMax: Int = 64, continuing: SessionID? = nil, holding held: [Int64] = []
    ) {
        continuationSession = continuing
        heldUntracked = held
        self.pendingRecordsMax = max(1, pendingRecordsMax)
        self.fuelScale = fuelScale
        self.run = run
        self.runNote = runNote
        self.directory = directory
        self.flushIntervalMs = flushIntervalMs
        self.flushPoints = flushPoints
        buffer = []
        buffer.reserveCapacity(flushPoints)
        pending.ends.reserveCapacity(self.pendingRecordsMax)
        pending.untracked.reserveCapacity(self.pendingRecordsMax)
    }

    /// Session starts, ends and untracked records waiting for the store.
    public var pendingRecordCount: Int { pending.ends.count + pending.untracked.count + (pending.start == nil ? 0 : 1) }

    /// Whether records wait for the store (the shell retries every tick until they are in).
    public var isBehind: Bool { pendingRecordCount > 0 || !unsavedLosses.isEmpty || run == nil }

    public func update(directory: DriverDirectory) { self.directory = directory }

    /// The session being recorded, if any.
    public var currentSession: SessionID? { openSession }

    /// Trip points waiting to be written; never more than `flushPoints`.
    public var bufferedPointCount: Int { buffer.count }
    /// Room reserved for them at init; the buffer never grows past it.
    public var bufferCapacity: Int { buffer.capacity }

    public func record(_ output: DomainOutput, _ store: StoreIntents) {
        switch output {
        case let .utcAnchored(offset, _):
            utc = UTCAnchor(offsetMs: offset)
            // Without its run row yet (a full disk at start-up), the run is anchored when it is written.
            if let run { attempt { () throws(Refusal) in try perform(.anchorRun(run, offsetMs: offset), store) } }
            // Untracked driving reported while UTC was unknown is stamped now.
            let waiting = pending.unstamped
            pending.unstamped.removeAll(keepingCapacity: true)
            for chunk in waiting { record(.untrackedDriving(chunk), store) }
        case .utcUnknown:
            flush(store)
            utc = UTCAnchor()
        case let .sessionStarted(driver, at):
            flush(store)
            counts.sessionsStarted += 1
            openSession = nil
            continuationSession = nil
            heldUntracked = []
            pending.start = Start(driver: driver, name: name(of: driver), at: at)
            retryPending(store)
        case let .sessionResumed(resumption):
            resume(resumption, store)
        case .interruptedTripEnded:
            if let id = continuationSession {
                attempt { () throws(Refusal) in try perform(.endSessionsLeftOpen(only: id), store) }
            }
        case let .tripPoint(point):
            add(point, store)
        case let .sessionEnded(record):
            end(record, store)
        case let .untrackedDriving(chunk):
            addUntracked(chunk, store)
        case let .unknownTag(uid, at):
            // Which taps reach the event log is the service core's to say (`UnknownTagThrottle`).
            if !attempt({ () throws(Refusal) in
                try perform(.logEvent(kind: "unknown_tag", detail: uid.description, utcMs: utcMs(at), keepingAtMost: nil), store)
            }) {
                lose(.event, 1)
            }
        case .feedback, .transition, .receiverTimeRejected:
            break
        }
    }

    private func resume(_ resumption: SessionResumption, _ store: StoreIntents) {
        flush(store)
        counts.sessionsResumed += 1
        if resumption.continuing, let id = continuationSession {
            let held = heldUntracked
            if let index = pending.ends.firstIndex(where: { $0.session == id }) {
                // Its end never reached the store: it is still open there.
                pending.ends.remove(at: index)
                attempt { () throws(Refusal) in try perform(.markContinued(id, from: nil, absorbing: held), store) }
            } else {
                let checkpoint = utc.utc(resumption.movedOffAt).map {
                    TripCheckpoint(metrics: resumption.measured, movedOffUTCMs: $0.millisecondsSinceEpoch)
                }
                attempt { () throws(Refusal) in try perform(.reopenSession(id, absorbing: held, checkpoint: checkpoint), store) }
            }
            openSession = id
        } else {
            counts.sessionsStarted += 1
            openSession = nil
            // The new session begins where the car moved off, not where the evidence came
            // (the decision window, or a GNSS outage at the car park's exit, is driving too).
            pending.start = Start(driver: resumption.driver, name: name(of: resumption.driver), at: resumption.startedAt)
            retryPending(store)
            if let id = openSession {
                let previous = continuationSession, held = heldUntracked
                attempt { () throws(Refusal) in try perform(.markContinued(id, from: previous, absorbing: held), store) }
            }
        }
        continuationSession = nil
        heldUntracked = []
    }

    private func add(_ point: TripPoint, _ store: StoreIntents) {
        guard openSession != nil || pending.start != nil, let stamp = utc.utc(point.at) else { return }
        let session = openSession ?? SessionID(0)
        if buffer.count >= flushPoints {
            flush(store)
            if buffer.count >= flushPoints {
                // The store is refusing writes: thin the fixed buffer (the track keeps its shape
                // at half the rate), count the loss.
                lose(.tripPoint, thinBuffer())
            }
        }
        buffer.append(StoredTripPoint(
            session: session, utcMs: stamp.millisecondsSinceEpoch, latitude: point.latitude, longitude: point.longitude,
            speedMetersPerSecond: point.speed.value, distanceMeters: point.distance.value, fuelLiters: point.fuel.value))
        let firstAt = lastFlushAt ?? point.at
        lastFlushAt = firstAt
        if buffer.count >= flushPoints || point.at.value - firstAt.value >= flushIntervalMs {
            flush(store)
            lastFlushAt = point.at
        }
    }

    private func end(_ record: SessionRecord, _ store: StoreIntents) {
        flush(store)
        counts.sessionsEnded += 1
        if openSession != nil || pending.start != nil {
            if pending.start != nil { dropPointsOfPendingStart() }
            if pending.ends.count + pending.untracked.count >= pendingRecordsMax {
                // The queue is at its bound: this one is counted, the ones waiting keep their turn.
                if pending.start != nil { lose(.sessionStart, 1) }
                lose(.sessionEnd, 1)
            } else {
                pending.ends.append(End(session: openSession, start: pending.start, record: record, anchor: utc))
            }
            pending.start = nil
            retryPending(store)
        }
        continuationSession = record.reason == .departed ? openSession : nil
        heldUntracked = []
        openSession = nil
    }

    private func addUntracked(_ chunk: UntrackedDriving, _ store: StoreIntents) {
        guard let from = utc.utc(chunk.from), let to = utc.utc(chunk.to) else {
            // No UTC yet (before the first fix, or after an MCU restart): it waits for the anchor.
            if pending.unstamped.count < pendingRecordsMax {
                pending.unstamped.append(chunk)
            } else {
                loseUntracked(meters: chunk.distance.value)
            }
            return
        }
        if pending.untracked.count + pending.ends.count >= pendingRecordsMax {
            loseUntracked(meters: chunk.distance.value)
        } else {
            pending.untracked.append(StoreIntent.UntrackedRecord(
                fromUTCMs: from.millisecondsSinceEpoch, toUTCMs: to.millisecondsSinceEpoch, distanceMeters: chunk.distance.value,
                fuelLiters: chunk.fuel.value, candidates: chunk.candidates.isEmpty ? [] : chunk.candidates.drivers))
        }
        retryPending(store)
    }

    /// Most `link_errors` rows the event log keeps: a day of a line noisy every minute.
    public static let linkErrorEventsKept = 1_440

    /// Writes a summary of link errors (the service core hands over one a minute at most) to the
    /// event log, as a `link_errors` row at link time `at` naming the counts (`crc_error 3,
    /// cobs_error 1`). At most `linkErrorEventsKept` such rows are kept, the oldest going first.
    public func recordLinkErrors(_ counts: LinkCounters, at: LinkMilliseconds, _ store: StoreIntents) {
        let detail = counts.nonZeroSummary
        let written = attempt { () throws(Refusal) in
            try perform(.logEvent(kind: "link_errors", detail: detail, utcMs: utcMs(at), keepingAtMost: Self.linkErrorEventsKept), store)
        }
        if !written { lose(.event, 1) }
    }

    /// Writes the buffered trip points (after any session start or end the store refused before).
    public func flush(_ store: StoreIntents) {
        retryPending(store)
        saveLosses(store)
        guard !buffer.isEmpty, pending.start == nil else { return }
        if attempt({ () throws(Refusal) in try perform(.appendTripPoints(buffer), store) }) {
            counts.pointsWritten += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the session start and ends the store refused, in order, until one fails again.
    private func retryPending(_ store: StoreIntents) {
        // The run's row first (start-up on a full disk could not write it): the sessions refer to it.
        if run == nil, !attempt({ () throws(Refusal) in _ = try storedRun(store) }) { return }
        if let start = pending.start {
            var id: SessionID?
            attempt { () throws(Refusal) in id = try open(start, anchor: utc, store) }
            guard let id else { return }
            pending.start = nil
            openSession = id
            for index in buffer.indices where buffer[index].session == SessionID(0) { buffer[index].session = id }
        }
        defer { if !storeRefusing && pendingRecordCount == 0 { endEpisode(store) } }
        while let end = pending.ends.first {
            let done = attempt { () throws(Refusal) in
                var session = end.session
                if session == nil, let start = end.start {
                    session = try open(start, anchor: end.anchor, store)
                    pending.ends[0].session = session
                }
                if let session { try perform(.closeSession(session, record: end.record, anchor: end.anchor), store) }
            }
            guard done else { return }
            pending.ends.removeFirst()
        }
        while let untracked = pending.untracked.first {
            let done = attempt { () throws(Refusal) in try perform(.addUntracked(untracked, fuelScale: fuelScale), store) }
            guard done else { return }
            pending.untracked.removeFirst()
        }
    }

    private func open(_ start: Start, anchor: UTCAnchor, _ store: StoreIntents) throws(Refusal) -> SessionID {
        let reply = try perform(.openSession(
            driver: start.driver, driverName: start.name, run: try storedRun(store), startLinkMs: start.at.value,
            startUTCMs: anchor.utc(start.at)?.millisecondsSinceEpoch, fuelScale: fuelScale), store)
        guard case let .sessionOpened(id) = reply else { throw Refusal(reason: "the store answered \(reply) to a session's start") }
        return id
    }

    /// This run's row in the store, written now if start-up could not (a full disk), with the
    /// UTC anchor known so far.
    private func storedRun(_ store: StoreIntents) throws(Refusal) -> Int64 {
        if let run { return run }
        let reply = try perform(.beginRun(note: runNote), store)
        guard case let .runBegun(begun) = reply else { throw Refusal(reason: "the store answered \(reply) to the run's row") }
        run = begun
        if let offset = utc.offsetMs { try perform(.anchorRun(begun, offsetMs: offset), store) }
        logger.notice("store: run \(begun) written (start-up could not: the disk was full)")
        return begun
    }

    /// Last try at shutdown: writes what waits (spending the reserve), counts what still cannot
    /// go in as lost, and saves the counters if the store takes them. Returns everything lost
    /// since start-up and whether it is all in the store's counters.
    public func finish(_ store: StoreIntents) -> (lost: StoreLosses, saved: Bool) {
        flush(store)
        if isBehind || !buffer.isEmpty {
            _ = store(.relieveDiskPressure)
            flush(store)
        }
        if pending.start != nil {
            // Its end never came (the service stops while it was open): the start is what is lost.
            lose(.sessionStart, 1)
            dropPointsOfPendingStart()
            pending.start = nil
        }
        for end in pending.ends {
            if end.session == nil && end.start != nil { lose(.sessionStart, 1) }
            lose(.sessionEnd, 1)
        }
        pending.ends.removeAll()
        lose(.untracked, pending.untracked.count)
        for untracked in pending.untracked { counts.untrackedMetersLost += untracked.distanceMeters }
        pending.untracked.removeAll()
        // Never stamped (no fix since UTC was lost): counted, as nothing can say when it was.
        lose(.untracked, pending.unstamped.count)
        for chunk in pending.unstamped { counts.untrackedMetersLost += chunk.distance.value }
        pending.unstamped.removeAll()
        lose(.tripPoint, buffer.count)
        buffer.removeAll(keepingCapacity: true)
        saveLosses(store)
        return (losses, unsavedLosses.isEmpty)
    }

    // MARK: Losses

    /// The points buffered for a start the store never took are lost with it.
    private func dropPointsOfPendingStart() {
        lose(.tripPoint, buffer.count { $0.session == SessionID(0) })
        buffer.removeAll { $0.session == SessionID(0) }
    }

    private func loseUntracked(meters: Double) {
        lose(.untracked, 1)
        counts.untrackedMetersLost += meters
    }

    /// Counts `count` records of `kind` lost; the first loss of an episode is logged at once.
    private func lose(_ kind: StoreLossKind, _ count: Int) {
        guard count > 0 else { return }
        losses[kind] += count
        unsavedLosses[kind] += count
        episode.hadLoss = true
        if !episode.lossLogged {
            episode.lossLogged = true
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
    private func saveLosses(_ store: StoreIntents) {
        guard !unsavedLosses.isEmpty else { return }
        let saving = unsavedLosses, newEpisode = !episode.lossesSaved
        if attempt({ () throws(Refusal) in try perform(.addLosses(saving, newEpisode: newEpisode), store) }) {
            unsavedLosses = StoreLosses()
            episode.lossesSaved = true
        }
    }

    private func endEpisode(_ store: StoreIntents) {
        guard episode.lossLogged || episode.hadLoss else { return }
        saveLosses(store)
        guard unsavedLosses.isEmpty else { return }
        logger.notice("store writable again: caught up; lost since start-up: \(losses)")
        episode = Episode()
    }

    // MARK: Store calls

    /// Hands one intent to the shell; a refusal ends the group of writes it is part of.
    @discardableResult
    private func perform(_ intent: StoreIntent, _ store: StoreIntents) throws(Refusal) -> StoreReply {
        let reply = store(intent)
        if case let .refused(reason) = reply { throw Refusal(reason: reason) }
        return reply
    }

    /// Runs a group of writes: all of it went in (true), or the store refused one of them.
    @discardableResult
    private func attempt(_ body: () throws(Refusal) -> Void) -> Bool {
        do {
            try body()
            if storeRefusing { logger.notice("store accepts writes again; catching up \(pendingRecordCount) record(s)") }
            storeRefusing = false
            return true
        } catch {
            errorCount += 1
            if !storeRefusing {
                storeRefusing = true
                logger.warning("store refusing writes (\(error.reason)); holding sessions in memory (at most \(pendingRecordsMax)), thinning buffered points")
            }
            return false
        }
    }

    private func utcMs(_ at: LinkMilliseconds) -> Int64? { utc.utc(at)?.millisecondsSinceEpoch }

    private func name(of driver: DriverID) -> String { directory.name(of: driver) ?? "driver \(driver.rawValue)" }
}
