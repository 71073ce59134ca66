import FairFuelCore
import FairFuelDomain
import Testing
import TestSupport

/// The continuity rules (ContinuityThresholds): a drive without a tap after a stop or a
/// restart is the last driver's when their beacon is in the car, and untracked with its
/// candidates otherwise; never anybody else's.
@Suite("Continuity")
struct ContinuityTests {
    /// What a monitor made of a run of events.
    struct Run {
        var monitor: DrivingMonitor
        var outputs: [DomainOutput] = []

        var ended: [SessionRecord] { outputs.compactMap { if case let .sessionEnded(record) = $0 { record } else { nil } } }
        var started: [DriverID] { outputs.compactMap { if case let .sessionStarted(driver, _) = $0 { driver } else { nil } } }
        var resumed: [SessionResumption] { outputs.compactMap { if case let .sessionResumed(resumption) = $0 { resumption } else { nil } } }
        var untracked: [UntrackedDriving] { outputs.compactMap { if case let .untrackedDriving(chunk) = $0 { chunk } else { nil } } }
        var untrackedMeters: Double { untracked.reduce(0) { $0 + $1.distance.value } }
        var interruptedEnds: Int { outputs.filter { if case .interruptedTripEnded = $0 { true } else { false } }.count }
        var lastPoint: TripPoint? { outputs.reversed().lazy.compactMap { if case let .tripPoint(point) = $0 { point } else { nil } }.first }

        mutating func feed(_ events: [ScenarioEvent]) {
            for event in events {
                guard let domainEvent = event.domainEvent(ignitionSense: false) else { continue }
                monitor.handle(domainEvent) { outputs.append($0) }
            }
        }

        mutating func finish() { monitor.flushUntracked { outputs.append($0) } }
    }

    static func world(seed: UInt64 = 21) -> ScenarioWorld {
        var options = ScenarioOptions(seed: seed)
        options.ignitionSense = false
        return ScenarioWorld(family: .standard, options: options)
    }

    static func monitor(_ world: ScenarioWorld) throws -> DrivingMonitor {
        DrivingMonitor(
            configuration: MonitorConfiguration(), directory: world.family.directory,
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
    }

    static func run(_ script: (inout ScenarioWorld) -> Void, seed: UInt64 = 21) throws -> (Run, ScenarioWorld) {
        var world = world(seed: seed)
        script(&world)
        var run = Run(monitor: try monitor(world))
        run.feed(world.takeEvents())
        run.finish()
        return (run, world)
    }

    /// The driver stops for fuel, walks out of range to a kiosk queue for `minutes`, comes
    /// back and drives on without tapping.
    static func fuelStop(_ world: inout ScenarioWorld, minutes: Int, driver: Person = .ben) {
        world.setOff(driver)
        world.town(kilometers: 3, seed: 5)
        world.wait(seconds: 3)
        world.ignitionOff()
        world.wait(seconds: 3)
        world.exit(driver, departing: true)
        world.wait(seconds: 60)  // walking away, out of range
        world.walk(driver, metersPerSecond: 0, seconds: minutes * 60)
        world.board(driver, tapping: false)
        world.ignitionOn()
        world.wait(seconds: 8)
        world.town(kilometers: 3, seed: 6)
        world.park(driver)
    }

    @Test("a fuel stop with the driver 12 minutes in the kiosk queue stays one trip")
    func kioskQueueKeepsOneTrip() throws {
        let (run, _) = try Self.run { Self.fuelStop(&$0, minutes: 12) }
        let ben = ScenarioFamily.driverID(.ben)
        // The departure rule ended it at the pump; the drive on reopened it.
        #expect(run.started == [ben])
        #expect(run.resumed.count == 1)
        #expect(run.resumed.first?.continuing == true && run.resumed.first?.origin == .stop && run.resumed.first?.driver == ben)
        #expect(run.ended.count == 2, "ended at the pump, reopened, ended at home")
        let last = try #require(run.ended.last)
        #expect(last.driver == ben && last.reason == .departed)
        // The whole 6 km in the one trip, nothing untracked.
        #expect(last.metrics.distance.value > 5_500 && last.metrics.distance.value < 7_500, "\(last.metrics.distance.value) m")
        // Only GNSS wander of the parked car after the trip, never the drive.
        #expect(run.untrackedMeters < 50, "\(run.untrackedMeters) m untracked")
        // The trip's start is the first tap, its duration spans the stop.
        #expect(last.startedAt == run.ended[0].startedAt)
        #expect(last.metrics.durationMs > 12 * 60_000)
    }

    @Test("two drives nobody tapped in for, a 2-hour park between, are two stretches of untracked driving")
    func untrackedDrivesDoNotJoinAcrossAPark() throws {
        // A dongle on an always-on socket: it stays up through the park, the receiver's wander included.
        var options = ScenarioOptions(seed: 21)
        options.ignitionSense = false
        options.holdUpMs = 4 * 3_600_000
        var world = ScenarioWorld(family: .standard, options: options)
        for seed in [7, 8] as [UInt64] {
            world.board(.cleo, tapping: false)  // Cleo has no fob and forgets her tag
            world.ignitionOn()
            world.wait(seconds: 8)
            world.town(kilometers: 4, seed: seed)
            world.park(.cleo, afterSeconds: 2 * 3_600)
        }
        var run = Run(monitor: try Self.monitor(world))
        run.feed(world.takeEvents())
        run.finish()
        #expect(run.started.isEmpty)
        #expect(run.untrackedMeters > 7_000, "\(run.untrackedMeters) m")
        // No stretch spans the park; the stretches of each drive are back to back, the two drives hours apart.
        #expect(run.untracked.allSatisfy { $0.to.value - $0.from.value < 30 * 60_000 }, "\(run.untracked.map { ($0.to.value - $0.from.value) / 1000 })")
        let gaps = zip(run.untracked, run.untracked.dropFirst()).map { $1.from.value - $0.to.value }
        #expect(gaps.filter { $0 > 3_600_000 }.count == 1, "\(gaps)")
    }

    @Test("a 40-minute park without a tap: a new session for the same driver, continuing the last")
    func parkStartsAResumedSession() throws {
        let (run, _) = try Self.run { Self.fuelStop(&$0, minutes: 40) }
        let ben = ScenarioFamily.driverID(.ben)
        #expect(run.resumed.count == 1)
        #expect(run.resumed.first?.continuing == false && run.resumed.first?.driver == ben)
        #expect(run.ended.count == 2)
        #expect(run.ended.allSatisfy { $0.driver == ben })
        #expect(run.ended[1].startedAt > run.ended[0].endedAt, "a new trip after the park")
        #expect(run.untrackedMeters < 50)
    }

    @Test("a drive on after a park that begins in a GNSS outage (a car park's ramp): the new session starts where the car last stood")
    func parkThenMoveOffInAnOutage() throws {
        var world = Self.world()
        world.setOff(.ben)
        world.town(kilometers: 3, seed: 5)
        world.wait(seconds: 3)
        world.ignitionOff()
        world.wait(seconds: 3)
        world.exit(.ben, departing: true)
        world.wait(seconds: 40 * 60)
        world.board(.ben, tapping: false)
        world.ignitionOn()
        world.wait(seconds: 8)
        let standingUntilMs = world.nowMs
        // The first 800 m underground: the receiver sees the car again only on the street.
        var random = SeededGenerator(seed: 6)
        var ramp = Route.urban(kilometers: 0.8, congestion: 0, random: &random)
        for index in ramp.legs.indices { ramp.legs[index].tunnel = true }
        world.drive(ramp + Route.urban(kilometers: 3, congestion: 0, random: &random))
        world.park(.ben)
        var run = Run(monitor: try Self.monitor(world))
        run.feed(world.takeEvents())
        run.finish()
        try #require(run.resumed.count == 1)
        let resumption = run.resumed[0]
        #expect(!resumption.continuing && resumption.driver == ScenarioFamily.driverID(.ben))
        // Where the car last stood is the last fix before the ramp: at most a second after it began moving.
        #expect(resumption.startedAt.value <= standingUntilMs + 1_000, "started \(resumption.startedAt.value), stood until \(standingUntilMs)")
        #expect(resumption.at.value - resumption.startedAt.value > 30_000, "the evidence came only after the ramp")
        let trip = try #require(run.ended.last)
        #expect(trip.startedAt == resumption.startedAt)
        #expect(trip.metrics.distance.value > 3_400, "\(trip.metrics.distance.value) m: the ramp's straight line and the street")
        #expect(run.untrackedMeters < 50)
    }

    @Test("after the new-trip window the drive is untracked, with the last driver as a candidate")
    func tooLongAParkIsUntracked() throws {
        let (run, _) = try Self.run { Self.fuelStop(&$0, minutes: 200) }
        #expect(run.resumed.isEmpty)
        #expect(run.ended.count == 1)
        #expect(run.untrackedMeters > 2_500)
        // Ben's fob is aboard: he is a candidate, never the driver.
        #expect(run.untracked.filter { $0.distance.value > 100 }.allSatisfy { $0.candidates.contains(ScenarioFamily.driverID(.ben)) })
    }

    @Test("another driver's fob aboard and not the last driver's: untracked, both candidates, given to neither")
    func anotherDriversFobIsOnlyACandidate() throws {
        let (run, _) = try Self.run { world in
            world.setOff(.ben)
            world.town(kilometers: 3, seed: 5)
            world.park(.ben, afterSeconds: 600)
            world.board(.ana, tapping: false)
            world.ignitionOn()
            world.wait(seconds: 8)
            world.town(kilometers: 3, seed: 7)
            world.park(.ana)
        }
        let ben = ScenarioFamily.driverID(.ben)
        let ana = ScenarioFamily.driverID(.ana)
        #expect(run.resumed.isEmpty)
        #expect(run.ended.count == 1 && run.ended[0].driver == ben)
        #expect(run.untrackedMeters > 2_500, "\(run.untrackedMeters) m")
        // The drive (GNSS wander in the parked car before and after is untracked too).
        let candidates = run.untracked.filter { $0.distance.value > 100 }
        #expect(!candidates.isEmpty)
        #expect(candidates.allSatisfy { $0.candidates.contains(ben) && $0.candidates.contains(ana) })
    }

    @Test("a driver without a beacon is never resumed after a stop: untracked, with them as candidate")
    func beaconlessDriverAfterAStop() throws {
        let (run, _) = try Self.run { Self.fuelStop(&$0, minutes: 12, driver: .cleo) }
        let cleo = ScenarioFamily.driverID(.cleo)
        #expect(run.resumed.isEmpty)
        #expect(run.ended.count == 1 && run.ended[0].driver == cleo)
        #expect(run.untrackedMeters > 2_500)
        #expect(run.untracked.filter { $0.distance.value > 100 }.allSatisfy { $0.candidates.contains(cleo) })
    }

    @Test("a tap by another driver after the stop starts their session; the last driver's trip does not go on")
    func aTapSaysOtherwise() throws {
        let (run, _) = try Self.run { world in
            world.setOff(.ben)
            world.town(kilometers: 3, seed: 5)
            world.park(.ben, afterSeconds: 300)
            world.board(.ben, atWheel: false)
            world.setOff(.ana)
            world.town(kilometers: 3, seed: 7)
            world.exit(.ben)
            world.park(.ana)
        }
        #expect(run.resumed.isEmpty)
        #expect(run.started == [ScenarioFamily.driverID(.ben), ScenarioFamily.driverID(.ana)])
        #expect(run.ended.last?.driver == ScenarioFamily.driverID(.ana))
        #expect(run.ended.last.map { $0.metrics.distance.value > 2_500 } == true)
    }

    @Test("ending by hand cancels the wait: the drive on is untracked")
    func manualEndCancelsContinuation() throws {
        let (run, _) = try Self.run { world in
            world.setOff(.ben)
            world.town(kilometers: 3, seed: 5)
            world.park(.ben, afterSeconds: 300)
            world.endSessionByHand()
            world.board(.ben, tapping: false)
            world.ignitionOn()
            world.wait(seconds: 8)
            world.town(kilometers: 2, seed: 7)
            world.park(.ben)
        }
        #expect(run.resumed.isEmpty)
        #expect(run.untrackedMeters > 1_500)
    }

    // MARK: Restarts

    /// A drive cut in two at `cutSeconds` into the second leg, `lostSeconds` of events lost
    /// (the service was down), the first part's last trip point handed to a fresh monitor
    /// as the store would.
    /// `firstFixesNorthMeters`: how far north of the truth the first valid fixes after the
    /// restart read, one entry per fix (a receiver's first fixes after a start, a multipath epoch).
    /// `downUntilStandingSeconds`: instead, the service is down from `cutAfterSeconds` before the
    /// car's last moving fix until this many seconds after it (a restart just before parking,
    /// or one in a tunnel whose fixes come back with the car parked).
    static func restart(
        cutAfterSeconds: Int, lostSeconds: Int = 4, driver: Person = .ben, gapOverride: Int64? = nil,
        firstFixesNorthMeters: [Double] = [], downUntilStandingSeconds: Int? = nil
    ) throws -> (whole: SessionRecord?, first: Run, second: Run, trip: InterruptedTrip) {
        var world = world()
        world.setOff(driver)
        world.town(kilometers: 6, seed: 5)
        world.park(driver)
        let events = world.takeEvents()
        var whole = Run(monitor: try monitor(world))
        whole.feed(events)
        let startMs = try #require(events.first?.timeMs)
        var cut = startMs + 60_000 + Int64(cutAfterSeconds) * 1000
        var back = cut + Int64(lostSeconds) * 1000
        if let downUntilStandingSeconds {
            let lastMoving = try #require(events.last {
                if case let .epoch(epoch) = $0.signal { epoch.valid && epoch.speedMetersPerSecond > 2 } else { false }
            }).timeMs
            cut = lastMoving - Int64(cutAfterSeconds) * 1000
            back = lastMoving + Int64(downUntilStandingSeconds) * 1000
        }
        var first = Run(monitor: try monitor(world))
        first.feed(events.filter { $0.timeMs < cut })
        let point = try #require(first.lastPoint)
        let started = try #require(first.monitor.machine.startedAt)
        let offset = try #require(first.monitor.utc.offsetMs)
        // The store keeps what was flushed: the last point, as UTC.
        let trip = InterruptedTrip(
            driver: ScenarioFamily.driverID(driver), isOpen: true, startUTCMs: started.value + offset,
            lastUTCMs: point.at.value + offset - (gapOverride ?? 0), latitude: point.latitude, longitude: point.longitude,
            lastSpeed: point.speed, metrics: first.monitor.currentTrip ?? TripMetrics())
        var second = Run(monitor: try monitor(world))
        second.monitor.offer(trip)
        var offFixes = firstFixesNorthMeters[...]
        second.feed(events.filter { $0.timeMs >= back }.map { event in
            guard case var .epoch(epoch) = event.signal, epoch.valid, let north = offFixes.popFirst() else { return event }
            epoch.latitude += north / 111_320
            var event = event
            event.signal = .epoch(epoch)
            return event
        })
        second.finish()
        return (whole.ended.first, first, second, trip)
    }

    /// The restart's trip went on as one: reopened (never a new session), whole within 1 % of the
    /// uninterrupted drive's distance, nothing left untracked. Returns the resumed trip.
    @discardableResult
    static func expectOneWholeTrip(_ whole: SessionRecord?, _ second: Run) throws -> SessionRecord {
        let uninterrupted = try #require(whole)
        #expect(second.started.isEmpty, "no new session")
        #expect(second.resumed.count == 1 && second.resumed[0].continuing && second.resumed[0].origin == .restart)
        #expect(second.interruptedEnds == 0)
        let resumed = try #require(second.ended.first)
        #expect(resumed.driver == uninterrupted.driver)
        let error = abs(resumed.metrics.distance.value - uninterrupted.metrics.distance.value) / uninterrupted.metrics.distance.value
        #expect(error < 0.01, "\(resumed.metrics.distance.value) m resumed vs \(uninterrupted.metrics.distance.value) m")
        #expect(second.untrackedMeters < 1)
        return resumed
    }

    @Test("a restart while moving: the trip goes on, one trip, distance within 1 % of the uninterrupted one", arguments: [90, 200, 330])
    func restartWhileMoving(cutAfterSeconds: Int) throws {
        let (whole, _, second, _) = try Self.restart(cutAfterSeconds: cutAfterSeconds)
        try Self.expectOneWholeTrip(whole, second)
    }

    @Test("a restart whose first fix is hundreds of metres off (a multipath epoch, a receiver just started): the trip goes on whole")
    func restartWithAnOutlierFirstFix() throws {
        let (whole, _, second, _) = try Self.restart(cutAfterSeconds: 200, firstFixesNorthMeters: [490])
        try Self.expectOneWholeTrip(whole, second)
    }

    @Test("a restart 30 s before parking, the service back with the car standing and the driver aboard: one trip, whole, ended by departure")
    func restartJustBeforeParking() throws {
        let (whole, _, second, _) = try Self.restart(cutAfterSeconds: 30, downUntilStandingSeconds: 2)
        let resumed = try Self.expectOneWholeTrip(whole, second)
        #expect(resumed.reason == .departed)
    }

    @Test("the service back with the car standing after the driver has left: no beacon, so the trip waits, and nobody gets the drive on")
    func restartBackAfterTheDriverLeft() throws {
        // Back 60 s after the last moving fix: Ben left 10 s after stopping, his beacon long gone.
        let (_, _, second, _) = try Self.restart(cutAfterSeconds: 30, downUntilStandingSeconds: 60)
        #expect(second.resumed.isEmpty)
        #expect(second.ended.isEmpty)
    }

    @Test("a restart whose fixes say 'elsewhere' for longer than the window: the stored trip ends, nobody gets the drive")
    func restartWithFixesElsewhereForTheWholeWindow() throws {
        // 2 km north for 12 fixes (12 s at 1 Hz), then where the car is.
        let (_, _, second, _) = try Self.restart(cutAfterSeconds: 200, firstFixesNorthMeters: Array(repeating: 2_000, count: 12))
        #expect(second.resumed.isEmpty)
        #expect(second.interruptedEnds == 1)
        #expect(second.ended.isEmpty)
    }

    @Test("a restart the receiver says came 25 minutes after the stored trip: that trip ends there, a new one continues it")
    func restartAfterAParkLongGap() throws {
        let (_, _, second, _) = try Self.restart(cutAfterSeconds: 200, gapOverride: 25 * 60_000)
        #expect(second.interruptedEnds == 1)
        #expect(second.resumed.count == 1 && second.resumed[0].continuing == false)
        #expect(second.ended.count == 1 && second.ended[0].driver == ScenarioFamily.driverID(.ben))
    }

    @Test("a restart hours after the stored trip: it ends there, nobody gets the drive")
    func restartHoursLaterDoesNotResume() throws {
        let (_, _, second, _) = try Self.restart(cutAfterSeconds: 200, gapOverride: 4 * 3_600_000)
        #expect(second.resumed.isEmpty)
        #expect(second.interruptedEnds == 1)
        #expect(second.ended.isEmpty)
        #expect(second.untrackedMeters > 1_000)
    }

    @Test("a restart of a beaconless driver's trip resumes only when the gap is shorter than a stop")
    func restartOfABeaconlessDriver() throws {
        let short = try Self.restart(cutAfterSeconds: 200, driver: .cleo)
        #expect(short.second.resumed.count == 1)
        let long = try Self.restart(cutAfterSeconds: 200, driver: .cleo, gapOverride: 240_000)
        #expect(long.second.resumed.isEmpty)
        #expect(long.second.interruptedEnds == 1)
        #expect(long.second.untrackedMeters > 1_000)
    }

    @Test("a restart far from where the trip was stored cannot be the same trip")
    func restartSomewhereElse() throws {
        var world = Self.world()
        world.setOff(.ben)
        world.town(kilometers: 6, seed: 5)
        world.park(.ben)
        let events = world.takeEvents()
        let startMs = try #require(events.first?.timeMs)
        var first = Run(monitor: try Self.monitor(world))
        first.feed(events.filter { $0.timeMs < startMs + 260_000 })
        let point = try #require(first.lastPoint)
        let offset = try #require(first.monitor.utc.offsetMs)
        // Stored 55 km north, seconds before: no car gets there in time.
        let elsewhere = InterruptedTrip(
            driver: ScenarioFamily.driverID(.ben), isOpen: true, startUTCMs: startMs + offset, lastUTCMs: point.at.value + offset,
            latitude: point.latitude + 0.5, longitude: point.longitude, lastSpeed: point.speed, metrics: first.monitor.currentTrip ?? TripMetrics())
        var run = Run(monitor: try Self.monitor(world))
        run.monitor.offer(elsewhere)
        run.feed(events.filter { $0.timeMs >= startMs + 264_000 })
        #expect(run.resumed.isEmpty)
        #expect(run.interruptedEnds == 1)
    }
}

