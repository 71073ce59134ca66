import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelServiceCore
import Testing

/// The recorder's decisions with plain values: a store that takes or refuses each intent as the
/// test says, no file, no tmpfs. What waits for a refusing store goes in, in order, once it
/// takes writes again; what cannot wait is counted, and the count goes in too.
@Suite struct RecorderCoreTests {
    /// A store as the core sees it: it performs what it is told, or refuses while `refusing`.
    final class ScriptedStore {
        var refusing = false
        /// Every intent the store took, by name and session, in order.
        private(set) var taken: [String] = []
        private(set) var refusals = 0
        private(set) var points: [StoredTripPoint] = []
        private(set) var losses = StoreLosses()
        private(set) var untrackedMeters = 0.0
        private var nextSession: Int64 = 1
        private var nextRun: Int64 = 1

        func perform(_ intent: StoreIntent) -> StoreReply {
            if case .relieveDiskPressure = intent {
                taken.append("relieve")
                return .done
            }
            guard !refusing else {
                refusals += 1
                return .refused("disk full")
            }
            switch intent {
            case let .beginRun(note):
                taken.append("run \(note)")
                nextRun += 1
                return .runBegun(nextRun - 1)
            case let .anchorRun(run, offsetMs): taken.append("anchor run \(run) at \(offsetMs)")
            case let .openSession(driver, _, run, startLinkMs, startUTCMs, _):
                taken.append("open \(nextSession) for \(driver.rawValue) in run \(run) at \(startLinkMs) utc \(startUTCMs.map(String.init) ?? "nil")")
                nextSession += 1
                return .sessionOpened(SessionID(nextSession - 1))
            case let .closeSession(session, record, _): taken.append("close \(session.rawValue) \(record.reason.rawValue)")
            case let .markContinued(session, previous, _): taken.append("continued \(session.rawValue) from \(previous.map { "\($0.rawValue)" } ?? "nil")")
            case let .reopenSession(session, _, _): taken.append("reopen \(session.rawValue)")
            case let .endSessionsLeftOpen(session): taken.append("end left open \(session.rawValue)")
            case let .appendTripPoints(batch):
                taken.append("points \(batch.count)")
                points += batch
            case let .addUntracked(record, _):
                taken.append("untracked")
                untrackedMeters += record.distanceMeters
            case let .logEvent(kind, _, _, _): taken.append("event \(kind)")
            case let .addLosses(added, newEpisode):
                taken.append("losses\(newEpisode ? " new episode" : "")")
                losses = losses + added
            case .relieveDiskPressure: break
            }
            return .done
        }
    }

    static let anna = DriverID(1)
    static let offsetMs: Int64 = 1_795_000_000_000

    static func core(flushPoints: Int = 10, pendingRecordsMax: Int = 64, run: Int64? = 7, log: LogCapture? = nil) -> RecorderCore {
        var directory = DriverDirectory()
        directory.addDriver(.init(id: anna, name: "Anna"))
        let core = RecorderCore(
            run: run, directory: directory, flushIntervalMs: 10_000, flushPoints: flushPoints, pendingRecordsMax: pendingRecordsMax)
        if let log { core.logger = log.logger }
        return core
    }

    static func point(second: Int64) -> DomainOutput {
        .tripPoint(TripPoint(
            driver: anna, at: LinkMilliseconds(second * 1_000), latitude: 48 + Double(second) / 10_000, longitude: 11.5,
            speed: MetersPerSecond(15), distance: Meters(Double(second) * 15), fuel: Liters(Double(second) / 1_000)))
    }

    static func ended(at second: Int64, meters: Double = 1_000) -> DomainOutput {
        var metrics = TripMetrics()
        metrics.distance = Meters(meters)
        return .sessionEnded(SessionRecord(
            driver: anna, startedAt: LinkMilliseconds(1_000), endedAt: LinkMilliseconds(second * 1_000), reason: .departed,
            stoppedAt: nil, driverLeftAt: nil, metrics: metrics))
    }

    @Test func aStartAndItsEndWaitThroughARefusalAndGoInInOrder() {
        let store = ScriptedStore(), log = LogCapture()
        let core = Self.core(log: log)
        core.record(.utcAnchored(offsetMs: Self.offsetMs, at: LinkMilliseconds(0)), store.perform)
        store.refusing = true
        core.record(.sessionStarted(driver: Self.anna, at: LinkMilliseconds(1_000)), store.perform)
        #expect(core.storeRefusing)
        #expect(core.pendingRecordCount == 1, "the start waits")
        #expect(core.currentSession == nil)
        for second in Int64(2)..<6 { core.record(Self.point(second: second), store.perform) }
        #expect(core.bufferedPointCount == 4, "points wait under the start")
        core.record(Self.ended(at: 6), store.perform)
        #expect(core.pendingRecordCount == 1, "the start travels with its end")
        #expect(core.losses.tripPoints == 4, "the points of a start never stored are lost with it")
        #expect(core.losses.sessionStarts == 0 && core.losses.sessionEnds == 0)
        #expect(log.contains("store refusing writes"))
        #expect(core.isBehind)

        core.flush(store.perform)
        #expect(core.pendingRecordCount == 1, "still refusing: nothing moves")
        store.refusing = false
        core.flush(store.perform)
        #expect(core.pendingRecordCount == 0)
        #expect(!core.storeRefusing)
        #expect(!core.isBehind)
        // The start keeps its own time and UTC; the loss count goes in as a new episode.
        #expect(store.taken == [
            "anchor run 7 at \(Self.offsetMs)", "open 1 for 1 in run 7 at 1000 utc \(Self.offsetMs + 1_000)", "close 1 departed",
            "losses new episode",
        ])
        #expect(store.losses == core.losses)
        #expect(core.unsavedLosses.isEmpty)
        #expect(log.contains("caught up; lost since start-up: 4 trip point(s)"))
    }

    @Test func pointsBufferedForARefusedStartJoinItsSessionOnceItGoesIn() {
        let store = ScriptedStore()
        let core = Self.core(flushPoints: 100)
        core.record(.utcAnchored(offsetMs: Self.offsetMs, at: LinkMilliseconds(0)), store.perform)
        store.refusing = true
        core.record(.sessionStarted(driver: Self.anna, at: LinkMilliseconds(1_000)), store.perform)
        for second in Int64(2)..<5 { core.record(Self.point(second: second), store.perform) }
        store.refusing = false
        core.flush(store.perform)
        #expect(core.currentSession == SessionID(1))
        #expect(store.points.count == 3)
        #expect(store.points.allSatisfy { $0.session == SessionID(1) }, "\(store.points.map(\.session))")
        #expect(core.losses.isEmpty)
    }

    @Test func aFullBufferOnARefusingStoreIsThinnedNeverGrownAndTheLossCounted() {
        let store = ScriptedStore()
        let core = Self.core(flushPoints: 10)
        let capacity = core.bufferCapacity
        core.record(.utcAnchored(offsetMs: Self.offsetMs, at: LinkMilliseconds(0)), store.perform)
        core.record(.sessionStarted(driver: Self.anna, at: LinkMilliseconds(1_000)), store.perform)
        store.refusing = true
        var fullest = 0
        for second in Int64(2)..<42 {
            core.record(Self.point(second: second), store.perform)
            fullest = max(fullest, core.bufferedPointCount)
        }
        #expect(fullest == 10)
        #expect(core.bufferCapacity == capacity)
        #expect(core.losses.tripPoints > 0)
        #expect(core.bufferedPointCount >= 5 && core.bufferedPointCount <= 10)
        store.refusing = false
        core.flush(store.perform)
        // Every point is written or counted; the first stays, and the track reaches the last.
        #expect(store.points.count + core.losses.tripPoints == 40)
        #expect(store.points.first?.utcMs == Self.offsetMs + 2_000)
        #expect(store.points.last?.utcMs == Self.offsetMs + 41_000)
        #expect(store.points.map(\.utcMs) == store.points.map(\.utcMs).sorted())
        #expect(store.losses == core.losses)
    }

    @Test func aBoundedQueueCountsWhatItCannotHoldAndTheWaitingKeepTheirTurn() {
        let store = ScriptedStore(), log = LogCapture()
        let core = Self.core(pendingRecordsMax: 2, log: log)
        core.record(.utcAnchored(offsetMs: Self.offsetMs, at: LinkMilliseconds(0)), store.perform)
        store.refusing = true
        for trip in Int64(0)..<3 {
            core.record(.sessionStarted(driver: Self.anna, at: LinkMilliseconds(trip * 100_000 + 1_000)), store.perform)
            core.record(Self.ended(at: trip * 100 + 50), store.perform)
        }
        #expect(core.pendingRecordCount == 2)
        #expect(core.losses.sessionEnds == 1 && core.losses.sessionStarts == 1)
        #expect(log.all.count { $0.contains("lost") && $0.contains("counted in") } == 1, "one line per episode")
        store.refusing = false
        core.flush(store.perform)
        #expect(store.taken.filter { $0.hasPrefix("close") }.count == 2)
        #expect(store.losses == core.losses)
    }

    @Test func untrackedDrivingWaitsForUTCAndForTheStore() {
        let store = ScriptedStore()
        let core = Self.core()
        let chunk = UntrackedDriving(from: LinkMilliseconds(1_000), to: LinkMilliseconds(60_000), distance: Meters(800), fuel: Liters(0.06))
        core.record(.untrackedDriving(chunk), store.perform)
        #expect(store.taken.isEmpty, "no UTC yet: it waits for the anchor")
        store.refusing = true
        core.record(.utcAnchored(offsetMs: Self.offsetMs, at: LinkMilliseconds(0)), store.perform)
        #expect(core.pendingRecordCount == 1)
        store.refusing = false
        core.flush(store.perform)
        #expect(store.untrackedMeters == 800)
        #expect(core.pendingRecordCount == 0)
    }

    @Test func aRunStartUpCouldNotWriteGoesInBeforeItsFirstSession() {
        let store = ScriptedStore()
        let core = Self.core(run: nil)
        #expect(core.isBehind)
        core.record(.utcAnchored(offsetMs: Self.offsetMs, at: LinkMilliseconds(0)), store.perform)
        core.record(.sessionStarted(driver: Self.anna, at: LinkMilliseconds(1_000)), store.perform)
        #expect(core.run == 1)
        #expect(store.taken.prefix(3) == ["run service", "anchor run 1 at \(Self.offsetMs)", "open 1 for 1 in run 1 at 1000 utc \(Self.offsetMs + 1_000)"])
    }

    @Test func stoppingWhileRefusingSpendsTheReserveThenCountsWhatWaits() {
        let store = ScriptedStore()
        let core = Self.core()
        store.refusing = true
        core.record(.utcAnchored(offsetMs: Self.offsetMs, at: LinkMilliseconds(0)), store.perform)
        core.record(.sessionStarted(driver: Self.anna, at: LinkMilliseconds(1_000)), store.perform)
        core.record(Self.ended(at: 60), store.perform)
        core.record(.sessionStarted(driver: Self.anna, at: LinkMilliseconds(70_000)), store.perform)
        for second in Int64(71)..<74 { core.record(Self.point(second: second), store.perform) }
        let (lost, saved) = core.finish(store.perform)
        #expect(store.taken == ["relieve"])
        #expect(lost.sessionStarts == 2 && lost.sessionEnds == 1 && lost.tripPoints == 3)
        #expect(!saved, "the store took nothing, not even the count")
        #expect(core.pendingRecordCount == 0)
        #expect(core.bufferedPointCount == 0)
    }

    @Test func linkErrorsGoToTheEventLogAsOneSummary() {
        let store = ScriptedStore()
        let core = Self.core()
        var counts = LinkCounters()
        counts.crcError = 3
        core.recordLinkErrors(counts, at: LinkMilliseconds(5_000), store.perform)
        #expect(store.taken == ["event link_errors"])
        store.refusing = true
        core.recordLinkErrors(counts, at: LinkMilliseconds(65_000), store.perform)
        #expect(core.losses.events == 1)
    }
}
