import FairFuelCore
import FairFuelDomain
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
public final class SessionRecorder {
    public let store: TripStore
    public let run: Int64
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
    public private(set) var pointsDropped = 0
    /// A session start the store refused (a full disk); retried before every write. Its trip
    /// points wait in the buffer under session 0 until it goes in.
    private var pendingStart: (driver: DriverID, name: String, at: LinkMilliseconds)?
    /// Session ends the store refused, oldest first; retried before every write. A nil session
    /// never got its start in: it is opened first (its points are lost, its summary is not).
    private var pendingEnds: [(session: SessionID?, start: (driver: DriverID, name: String, at: LinkMilliseconds)?, record: SessionRecord, anchor: UTCAnchor)] = []
    /// Session ends given up because more than 8 were waiting for the store.
    public private(set) var sessionsLost = 0
    /// Sessions taken up again without a tap (continuity rules), reopened or new.
    public private(set) var sessionsResumed = 0
    /// The session a continuation would reopen: the store's last trip at start-up, then
    /// each session that ends by departure.
    public private(set) var continuationSession: SessionID?

    /// Untracked driving held for the start-up trip: removed from the store when the trip takes it back.
    private var heldUntracked: [Int64] = []

    /// `continuing`: the session of the trip handed to the domain with `DrivingMonitor.offer`;
    /// `holding`: the untracked driving it would take back.
    public init(
        store: TripStore, run: Int64, directory: DriverDirectory, policy: TripPointFlushPolicy, fuelScale: Double = 1,
        continuing: SessionID? = nil, holding held: [Int64] = []
    ) {
        continuationSession = continuing
        heldUntracked = held
        self.fuelScale = fuelScale
        self.store = store
        self.run = run
        self.directory = directory
        self.policy = policy
        buffer = []
        buffer.reserveCapacity(policy.flushPoints)
    }

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
            attempt { try store.anchorRun(run, offsetMs: offset) }
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
                    attempt { try store.reopenSession(id, absorbing: held) }
                }
                openSession = id
            } else {
                sessionsStarted += 1
                let name = directory.name(of: resumption.driver) ?? "driver \(resumption.driver.rawValue)"
                openSession = nil
                pendingStart = (resumption.driver, name, resumption.at)
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
                    // The store is refusing writes: keep the newest, fixed buffer, count the loss.
                    buffer.removeFirst()
                    pointsDropped += 1
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
                    pointsDropped += buffer.count { $0.session == SessionID(0) }
                    buffer.removeAll { $0.session == SessionID(0) }
                }
                if pendingEnds.count >= 8 {
                    pendingEnds.removeFirst()
                    sessionsLost += 1
                }
                pendingEnds.append((openSession, pendingStart, record, utc))
                pendingStart = nil
                retryPending()
            }
            continuationSession = record.reason == .departed ? openSession : nil
            heldUntracked = []
            openSession = nil
        case let .untrackedDriving(chunk):
            guard let from = utc.utc(chunk.from), let to = utc.utc(chunk.to) else { return }
            attempt {
                try store.addUntracked(
                    fromUTCMs: from.millisecondsSinceEpoch, toUTCMs: to.millisecondsSinceEpoch,
                    distanceMeters: chunk.distance.value, fuelLiters: chunk.fuel.value, fuelScale: fuelScale,
                    candidates: chunk.candidates.isEmpty ? [] : chunk.candidates.drivers)
            }
        case let .unknownTag(uid, at):
            attempt { try store.logEvent(kind: "unknown_tag", detail: uid.description, utcMs: utc.utc(at)?.millisecondsSinceEpoch) }
        case .feedback, .transition:
            break
        }
    }

    /// Writes the buffered trip points (after any session start or end the store refused before).
    public func flush() {
        retryPending()
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

    /// Writes the session start and ends the store refused, in order, until one fails again.
    private func retryPending() {
        if let start = pendingStart {
            var id: SessionID?
            attempt {
                id = try store.openSession(
                    driver: start.driver, driverName: start.name, run: run, startLinkMs: start.at.value,
                    startUTCMs: utc.utc(start.at)?.millisecondsSinceEpoch, fuelScale: fuelScale)
            }
            guard let id else { return }
            pendingStart = nil
            openSession = id
            for index in buffer.indices where buffer[index].session == SessionID(0) { buffer[index].session = id }
        }
        while let end = pendingEnds.first {
            var done = false
            attempt {
                var session = end.session
                if session == nil, let start = end.start {
                    session = try store.openSession(
                        driver: start.driver, driverName: start.name, run: run, startLinkMs: start.at.value,
                        startUTCMs: end.anchor.utc(start.at)?.millisecondsSinceEpoch, fuelScale: fuelScale)
                    pendingEnds[0].session = session
                }
                if let session { try store.closeSession(session, record: end.record, utc: { end.anchor.utc($0)?.millisecondsSinceEpoch }) }
                done = true
            }
            guard done else { return }
            pendingEnds.removeFirst()
        }
    }

    private func attempt(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            errorCount += 1
            if firstError == nil { firstError = error as? StoreError ?? .invalid("\(error)") }
        }
    }
}
