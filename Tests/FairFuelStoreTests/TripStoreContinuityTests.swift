import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
import FairFuelStore
import Testing

/// What start-up hands the continuity rules, and how a resumed trip is stored.
@Suite struct TripStoreContinuityTests {
    static let t0: Int64 = 1_772_434_800_000  // 2026-03-02T07:00:00Z

    static func store() throws -> (TripStore, DriverID, DriverID) {
        let store = try TripStore(path: temporaryStorePath())
        let ben = try store.addDriver(name: "Ben", tags: [], beacons: [])
        let cara = try store.addDriver(name: "Cara", tags: [], beacons: [])
        return (store, ben, cara)
    }

    /// A session of `seconds` at 12 m/s, with its points, left open.
    static func openTrip(_ store: TripStore, driver: DriverID, start: Int64, seconds: Int) throws -> SessionID {
        let run = try store.beginRun(note: "test")
        let id = try store.openSession(driver: driver, driverName: "Ben", run: run, startLinkMs: 0, startUTCMs: start)
        var points: [StoredTripPoint] = []
        for second in 0..<seconds {
            let elapsed = Double(second)
            let time: Int64 = start + Int64(second) * 1000
            let latitude: Double = 48 + elapsed * 12 / 111_195
            let speed: Double = second < 5 ? elapsed * 2.4 : 12
            points.append(StoredTripPoint(
                session: id, utcMs: time, latitude: latitude, longitude: 11, speedMetersPerSecond: speed,
                distanceMeters: elapsed * 12, fuelLiters: elapsed * 0.0008))
        }
        try store.appendTripPoints(points)
        return id
    }

    @Test("an open session is handed over with its track's totals, position and times; nothing is closed")
    func openSessionIsHandedOver() throws {
        let (store, ben, _) = try Self.store()
        let id = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 600)
        let handed = try #require(try store.tripToContinue(motion: MotionThresholds(), session: SessionThresholds()))
        #expect(handed.session == id)
        #expect(handed.trip.isOpen && handed.trip.driver == ben)
        #expect(handed.trip.startUTCMs == Self.t0)
        #expect(handed.trip.lastUTCMs == Self.t0 + 599_000)
        #expect(abs(handed.trip.metrics.distance.value - 599 * 12) < 0.001)
        #expect(abs(handed.trip.metrics.fuel.value - 599 * 0.0008) < 1e-9)
        #expect(handed.trip.metrics.maximumSpeed.value == 12)
        #expect(handed.trip.metrics.movingMs > 590_000)
        #expect(abs((handed.trip.latitude ?? 0) - (48 + 599 * 12 / 111_195.0)) < 1e-6, "as the track codec quantizes it")
        #expect(try store.sessions().first?.endReason == nil, "left open for the rules to decide")
    }

    @Test("older sessions left open end as power_loss; only the newest is handed over")
    func olderOpenSessionsEnd() throws {
        let (store, ben, cara) = try Self.store()
        let old = try Self.openTrip(store, driver: cara, start: Self.t0 - 86_400_000, seconds: 60)
        let newest = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 60)
        let handed = try store.tripToContinue(motion: MotionThresholds(), session: SessionThresholds())
        #expect(handed?.session == newest)
        let sessions = try store.sessions()
        #expect(sessions.first { $0.id == old }?.endReason == .powerLoss)
        #expect(sessions.first { $0.id == newest }?.endReason == nil)
    }

    @Test("a departed trip is handed over with its stop time, unless untracked driving came after it")
    func departedTripIsHandedOverUntilSomebodyDrove() throws {
        let (store, ben, _) = try Self.store()
        let id = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 300)
        var metrics = TripMetrics()
        metrics.distance = Meters(3_588)
        metrics.fuel = Liters(0.24)
        metrics.durationMs = 420_000
        let record = SessionRecord(
            driver: ben, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(420_000), reason: .departed,
            stoppedAt: LinkMilliseconds(300_000), driverLeftAt: LinkMilliseconds(310_000), metrics: metrics)
        try store.closeSession(id, record: record) { Self.t0 + $0.value }
        let handed = try #require(try store.tripToContinue(motion: MotionThresholds(), session: SessionThresholds()))
        #expect(!handed.trip.isOpen)
        #expect(handed.trip.lastUTCMs == Self.t0 + 300_000, "the stop, not the end of the cooldown")
        #expect(handed.trip.metrics.distance.value == 3_588 && handed.trip.metrics.fuel.value == 0.24)
        try store.addUntracked(fromUTCMs: Self.t0 + 900_000, toUTCMs: Self.t0 + 960_000, distanceMeters: 700, fuelLiters: 0.05)
        #expect(try store.tripToContinue(motion: MotionThresholds(), session: SessionThresholds()) == nil)
    }

    @Test("a reopened session is open again, counted as resumed, and its end is written anew")
    func reopenedSessionEndsAgain() throws {
        let (store, ben, _) = try Self.store()
        let id = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 60)
        var metrics = TripMetrics()
        metrics.distance = Meters(708)
        let first = SessionRecord(
            driver: ben, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(400_000), reason: .departed,
            stoppedAt: LinkMilliseconds(60_000), driverLeftAt: nil, metrics: metrics)
        try store.closeSession(id, record: first) { Self.t0 + $0.value }
        try store.reopenSession(id)
        var reopened = try #require(try store.sessions().first)
        #expect(reopened.endReason == nil && reopened.endUTCMs == nil && reopened.resumedCount == 1)
        metrics.distance = Meters(6_000)
        let second = SessionRecord(
            driver: ben, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(1_500_000), reason: .departed,
            stoppedAt: nil, driverLeftAt: nil, metrics: metrics)
        try store.closeSession(id, record: second) { Self.t0 + $0.value }
        reopened = try #require(try store.sessions().first)
        #expect(reopened.endReason == .departed && reopened.distanceMeters == 6_000 && reopened.endUTCMs == Self.t0 + 1_500_000)
        #expect(try store.sessions().count == 1, "one trip")
    }

    @Test("a session reopened after a stop is rebuilt from its checkpoint and the track after it: the stop is not idle time")
    func reopenedSessionIsRebuiltFromItsCheckpoint() throws {
        let (store, ben, _) = try Self.store()
        // 300 s of driving, then the car stands 400 s (a fuel stop) with its points still stored
        // until the session ended, then 200 s of driving on after the reopen.
        let id = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 300)
        var standing: [StoredTripPoint] = []
        for second in 300..<700 {
            standing.append(StoredTripPoint(
                session: id, utcMs: Self.t0 + Int64(second) * 1000, latitude: 48 + 299 * 12 / 111_195.0, longitude: 11,
                speedMetersPerSecond: 0, distanceMeters: 299 * 12, fuelLiters: 299 * 0.0008))
        }
        try store.appendTripPoints(standing)
        var atEnd = TripMetrics()
        atEnd.distance = Meters(3_588)
        atEnd.fuel = Liters(0.2392)
        atEnd.movingMs = 299_000
        atEnd.idleMs = 190_000  // the departure wait, as the live meter counted it
        atEnd.durationMs = 490_000
        atEnd.maximumSpeed = MetersPerSecond(12)
        try store.closeSession(id, record: SessionRecord(
            driver: ben, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(490_000), reason: .departed,
            stoppedAt: LinkMilliseconds(300_000), driverLeftAt: nil, metrics: atEnd)) { Self.t0 + $0.value }
        let movedOff = Self.t0 + 700_000
        var checkpoint = atEnd
        checkpoint.durationMs = 700_000
        try store.reopenSession(id, checkpoint: TripCheckpoint(metrics: checkpoint, movedOffUTCMs: movedOff))
        var after: [StoredTripPoint] = []
        for second in 1...200 {
            after.append(StoredTripPoint(
                session: id, utcMs: movedOff + Int64(second) * 1000, latitude: 48 + Double(299 + second) * 12 / 111_195, longitude: 11,
                speedMetersPerSecond: 12, distanceMeters: Double(299 + second) * 12, fuelLiters: Double(299 + second) * 0.0008))
        }
        try store.appendTripPoints(after)

        let handed = try #require(try store.tripToContinue(motion: MotionThresholds(), session: SessionThresholds()))
        #expect(handed.trip.isOpen)
        let metrics = handed.trip.metrics
        #expect(metrics.idleMs == 190_000, "the stop counts as the live meter counted it, not its 400 s: \(metrics)")
        #expect(metrics.movingMs == 299_000 + 200_000, "\(metrics)")
        #expect(abs(metrics.distance.value - 499 * 12) < 0.01 && abs(metrics.fuel.value - 499 * 0.0008) < 1e-9)
        #expect(metrics.durationMs == 900_000)
        // Without the checkpoint the whole track is read again, and the stop is idle time.
        try store.connection.run("UPDATE sessions SET measured_until_utc_ms = NULL")
        let rebuilt = try #require(try store.tripToContinue(motion: MotionThresholds(), session: SessionThresholds()))
        #expect(rebuilt.trip.metrics.idleMs > 400_000)
    }

    @Test("a restart's track that ends standing says since when the car stood")
    func openTrackEndingStandingSaysSinceWhen() throws {
        let (store, ben, _) = try Self.store()
        let id = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 120)
        try store.appendTripPoints((120..<150).map { second in
            StoredTripPoint(
                session: id, utcMs: Self.t0 + Int64(second) * 1000, latitude: 48 + 119 * 12 / 111_195.0, longitude: 11,
                speedMetersPerSecond: 0, distanceMeters: 119 * 12, fuelLiters: 119 * 0.0008)
        })
        let handed = try #require(try store.tripToContinue(motion: MotionThresholds(), session: SessionThresholds()))
        #expect(handed.trip.standingSinceUTCMs == Self.t0 + 120_000)
        let moving = try Self.store()
        _ = try Self.openTrip(moving.0, driver: moving.1, start: Self.t0, seconds: 120)
        #expect(try #require(try moving.0.tripToContinue(motion: MotionThresholds(), session: SessionThresholds())).trip.standingSinceUTCMs == nil)
    }

    @Test("a session continuing another after a park names it")
    func continuedSessionNamesItsPredecessor() throws {
        let (store, ben, _) = try Self.store()
        let first = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 60)
        try store.endSessionsLeftOpen()
        let second = try Self.openTrip(store, driver: ben, start: Self.t0 + 3_600_000, seconds: 60)
        try store.markContinued(second, from: first)
        let stored = try #require(try store.sessions().first { $0.id == second })
        #expect(stored.continuedFrom == first && stored.resumedCount == 1)
    }

    @Test("untracked driving keeps its candidates, in order")
    func untrackedCandidatesRoundTrip() throws {
        let (store, ben, cara) = try Self.store()
        try store.addUntracked(fromUTCMs: Self.t0, toUTCMs: Self.t0 + 60_000, distanceMeters: 800, fuelLiters: 0.06, candidates: [cara, ben])
        try store.addUntracked(fromUTCMs: Self.t0 + 3_600_000, toUTCMs: Self.t0 + 3_660_000, distanceMeters: 700, fuelLiters: 0.05)
        #expect(try store.untrackedCandidates().map(\.candidates) == [[cara, ben], []])
        // A chunk that carries on a drive joins it; its candidates join the drive's.
        try store.addUntracked(fromUTCMs: Self.t0 + 3_661_000, toUTCMs: Self.t0 + 3_720_000, distanceMeters: 650, fuelLiters: 0.05, candidates: [ben])
        try store.addUntracked(fromUTCMs: Self.t0 + 3_721_000, toUTCMs: Self.t0 + 3_780_000, distanceMeters: 600, fuelLiters: 0.05, candidates: [cara, ben])
        let stored = try store.untrackedCandidates()
        #expect(stored.map(\.candidates) == [[cara, ben], [ben, cara]])
        #expect(stored.map(\.distanceMeters) == [800, 1_950])
    }

    @Test("a trip never ends before it started, whatever the clock did")
    func endNeverBeforeStart() throws {
        let (store, ben, _) = try Self.store()
        let id = try Self.openTrip(store, driver: ben, start: Self.t0, seconds: 10)
        let record = SessionRecord(
            driver: ben, startedAt: LinkMilliseconds(0), endedAt: LinkMilliseconds(5_000), reason: .manual,
            stoppedAt: nil, driverLeftAt: nil, metrics: TripMetrics())
        try store.closeSession(id, record: record) { _ in Self.t0 - 3_600_000 }
        #expect(try store.sessions().first?.endUTCMs == Self.t0)
    }
}
