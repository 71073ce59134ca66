import FairFuelCore
import FairFuelDomain
import Testing
import TestSupport

/// An MCU restart mid-trip while the service runs: the receiver's first time after it says
/// whether the open trip can be going on. A brown-out goes on; another MCU, or the same days
/// later, ends the trip at its last fix as measured, and the continuity rules judge what follows.
@Suite("MCU restart mid-trip")
struct MCURestartMidTripTests {
    struct Outcome {
        var run: ContinuityTests.Run
        var startedAt: LinkMilliseconds
        var lastFix: MotionStep
        var offsetBeforeMs: Int64
        var measured: TripMetrics
    }

    /// Ben's town drive; half way, the MCU restarts and its receiver's clock reads `jumpMs` more
    /// than it would have (link time goes on from the old MCU's, as `LinkClock` keeps it).
    /// `northMeters`: how far north of the truth each valid fix after the restart reads, by its
    /// index among them (0: the first fix after the restart).
    static func drive(receiverJumpMs jumpMs: Int64, northMeters: (Int) -> Double = { _ in 0 }) throws -> Outcome {
        var world = ContinuityTests.world()
        world.setOff(.ben)
        world.town(kilometers: 6, seed: 5)
        world.park(.ben)
        let events = world.takeEvents()
        let moving = events.filter { if case let .epoch(epoch) = $0.signal { epoch.valid && epoch.speedMetersPerSecond > 5 } else { false } }
        let cutMs = moving[moving.count / 2].timeMs
        var run = ContinuityTests.Run(monitor: try ContinuityTests.monitor(world))
        run.feed(events.filter { $0.timeMs <= cutMs })
        let monitor = run.monitor
        let outcome = (
            startedAt: try #require(monitor.machine.startedAt), lastFix: try #require(monitor.motion.lastAccepted),
            offset: try #require(monitor.utc.offsetMs), measured: try #require(monitor.currentTrip))
        run.monitor.handle(.mcuRestarted(at: LinkMilliseconds(cutMs + 500))) { run.outputs.append($0) }
        var validFixes = 0
        let later = events.filter { $0.timeMs > cutMs }.map { event in
            var event = event
            if case var .epoch(epoch) = event.signal {
                epoch.utcMs += jumpMs
                if epoch.valid {
                    epoch.latitude += northMeters(validFixes) / 111_320
                    validFixes += 1
                }
                event.signal = .epoch(epoch)
            }
            return event
        }
        run.feed(later)
        run.finish()
        return Outcome(
            run: run, startedAt: outcome.startedAt, lastFix: outcome.lastFix, offsetBeforeMs: outcome.offset,
            measured: outcome.measured)
    }

    /// The UTC the shell stamps an output's link time with: the anchor of the last
    /// `utcAnchored` before it.
    static func stampedUTCMs(of record: SessionRecord, in outputs: [DomainOutput]) -> Int64? {
        var offset: Int64?
        for output in outputs {
            switch output {
            case let .utcAnchored(offsetMs, _): offset = offsetMs
            case .utcUnknown: offset = nil
            case let .sessionEnded(ended) where ended == record: return offset.map { record.endedAt.value + $0 }
            default: break
            }
        }
        return nil
    }

    @Test("a receiver three days on ends the open trip at its last fix, as measured; the drive on is untracked")
    func daysLater() throws {
        let outcome = try Self.drive(receiverJumpMs: 3 * 86_400_000)
        let run = outcome.run
        try #require(run.ended.count == 1)
        let record = run.ended[0]
        #expect(record.reason == .powerLoss)
        #expect(Self.stampedUTCMs(of: record, in: run.outputs) == outcome.lastFix.time.value + outcome.offsetBeforeMs)
        #expect(record.metrics.durationMs == outcome.lastFix.time.value - outcome.startedAt.value)
        #expect(record.metrics.distance == outcome.measured.distance)
        #expect(record.metrics.movingMs == outcome.measured.movingMs)
        // Three days is no trip going on, nor a new one of Ben's: untracked, Ben a candidate.
        #expect(run.resumed.isEmpty)
        #expect(run.untrackedMeters > 1_000, "\(run.untrackedMeters) m untracked")
        #expect(run.untracked.first?.candidates.contains(ScenarioFamily.driverID(.ben)) == true)
    }

    @Test("a receiver whose time goes on (a brown-out) keeps the open trip")
    func brownOut() throws {
        let outcome = try Self.drive(receiverJumpMs: 0)
        let run = outcome.run
        try #require(run.ended.count == 1)
        #expect(run.ended[0].reason == .departed)
        #expect(run.ended[0].metrics.distance.value > outcome.measured.distance.value + 1_000)
        #expect(run.untracked.isEmpty)
    }

    @Test("a brown-out whose first fix is hundreds of metres off keeps the open trip, without that fix")
    func brownOutWithAnOutlierFirstFix() throws {
        let clean = try Self.drive(receiverJumpMs: 0)
        let outcome = try Self.drive(receiverJumpMs: 0) { $0 == 0 ? 490 : 0 }
        let run = outcome.run
        try #require(run.ended.count == 1)
        #expect(run.ended[0].reason == .departed)
        #expect(run.untracked.isEmpty)
        let distance = run.ended[0].metrics.distance.value
        let cleanDistance = try #require(clean.run.ended.first).metrics.distance.value
        #expect(abs(distance - cleanDistance) / cleanDistance < 0.01, "\(distance) m against \(cleanDistance) m without the outlier")
    }

    @Test("a receiver somewhere no car could have reached, fix after fix, ends the trip at its last fix once the window has passed")
    func receiverElsewhere() throws {
        let outcome = try Self.drive(receiverJumpMs: 0) { _ in 55_000 }
        let run = outcome.run
        try #require(run.ended.count == 1)
        #expect(run.ended[0].reason == .powerLoss)
        #expect(Self.stampedUTCMs(of: run.ended[0], in: run.outputs) == outcome.lastFix.time.value + outcome.offsetBeforeMs)
        #expect(run.ended[0].metrics.distance == outcome.measured.distance)
        #expect(run.resumed.isEmpty)
    }

    @Test("a receiver time before the trip's last fix ends the trip there, with no continuation")
    func receiverBehind() throws {
        let outcome = try Self.drive(receiverJumpMs: -3_600_000)
        let run = outcome.run
        try #require(run.ended.count == 1)
        #expect(run.ended[0].reason == .powerLoss)
        #expect(Self.stampedUTCMs(of: run.ended[0], in: run.outputs) == outcome.lastFix.time.value + outcome.offsetBeforeMs)
        #expect(run.resumed.isEmpty)
    }
}
