import FairFuelCore
@testable import FairFuelDomain
import Testing

/// The continuity states and verdicts, with plain values: a trip waits, the car moves off, the
/// beacon or the window decides.
@Suite struct ContinuityJudgeTests {
    static let rules = ContinuityThresholds()

    static func judgeWithATripWaiting(stoppedAt stop: Int64 = 0) -> ContinuityJudge {
        var judge = ContinuityJudge(rules: rules, maximumMetersPerSecond: 54)
        judge.wait(for: ContinuationCandidate(
            driver: DriverID(1), origin: .stop, startedAt: LinkMilliseconds(-600_000), stopBeganAt: LinkMilliseconds(stop),
            startUTCMs: nil, stopBeganUTCMs: nil, metrics: TripMetrics(), latitude: nil, longitude: nil, lastSpeed: .zero,
            sessionOpen: false, bridge: nil))
        return judge
    }

    @Test func aWaitingTripDecidesOnlyOnceTheCarMovesOff() {
        var judge = Self.judgeWithATripWaiting()
        guard case .waiting = judge.state else { Issue.record("a trip offered waits: \(judge.state)"); return }
        #expect(judge.moveOff == nil)
        #expect(judge.verdict(parkedMs: 60_000, evidence: true, at: LinkMilliseconds(60_000)) == .wait, "standing: nothing to decide")
        judge.startDeciding(at: LinkMilliseconds(60_000), movedOffAt: LinkMilliseconds(58_000), meters: 3)
        #expect(judge.moveOff == ContinuityJudge.MoveOff(since: LinkMilliseconds(60_000), movedOffAt: LinkMilliseconds(58_000), meters: 3))
        #expect(judge.candidate?.driver == DriverID(1), "the trip stays the one that waits")
        #expect(judge.verdict(parkedMs: 58_000, evidence: true, at: LinkMilliseconds(61_000)) == .resume(continuing: true))
        #expect(judge.verdict(parkedMs: Self.rules.sameTripMaxStopMs + 1, evidence: true, at: LinkMilliseconds(61_000))
            == .resume(continuing: false))
        #expect(judge.verdict(parkedMs: Self.rules.newTripMaxStopMs + 1, evidence: true, at: LinkMilliseconds(61_000)) == .drop)
    }

    @Test func withoutTheBeaconTheWindowAndTheDistanceDrop() {
        var judge = Self.judgeWithATripWaiting()
        judge.startDeciding(at: LinkMilliseconds(1_000), movedOffAt: LinkMilliseconds(1_000), meters: 10)
        let late = LinkMilliseconds(1_000 + Self.rules.decisionWindowMs + 1)
        #expect(judge.verdict(parkedMs: 1_000, evidence: false, at: late) == .wait, "10 m is not yet a drive away")
        let goesOn = judge.stepWhileDeciding(meters: 45, moving: true, at: late)
        #expect(goesOn)
        #expect(judge.verdict(parkedMs: 1_000, evidence: false, at: late) == .drop)
    }

    @Test func speedNoiseGoesBackToWaitingAndClearEndsTheWait() {
        var judge = Self.judgeWithATripWaiting()
        judge.startDeciding(at: LinkMilliseconds(1_000), movedOffAt: LinkMilliseconds(1_000), meters: 2)
        let withinTheWindow = judge.stepWhileDeciding(meters: 1, moving: false, at: LinkMilliseconds(2_000))
        #expect(withinTheWindow, "within the window the decision goes on")
        let pastTheWindow = judge.stepWhileDeciding(meters: 1, moving: false, at: LinkMilliseconds(1_000 + Self.rules.decisionWindowMs + 1))
        #expect(!pastTheWindow)
        guard case .waiting = judge.state else { Issue.record("noise: the trip waits again, not \(judge.state)"); return }
        // Replacing the trip keeps the state; clearing it ends the wait.
        judge.startDeciding(at: LinkMilliseconds(40_000), movedOffAt: LinkMilliseconds(40_000), meters: 0)
        judge.candidate?.sessionOpen = true
        #expect(judge.moveOff != nil && judge.candidate?.sessionOpen == true)
        judge.clear()
        guard case .none = judge.state else { Issue.record("cleared: \(judge.state)"); return }
        #expect(judge.candidate == nil && judge.moveOff == nil)
    }

    @Test func aCarCoversAtMostTheFastestTrustedSpeedPlusTheFixesError() {
        let judge = Self.judgeWithATripWaiting()
        #expect(judge.couldCover(Meters(54 * 10 + 100), inMs: 10_000))
        #expect(!judge.couldCover(Meters(54 * 10 + 101), inMs: 10_000))
        #expect(judge.couldCover(Meters(100), inMs: -5_000), "a clock step back allows only the fixes' error")
        var since: LinkMilliseconds?
        let waitsAtFirst = judge.waitsOutImplausibleFix(since: &since, at: LinkMilliseconds(5_000))
        #expect(waitsAtFirst)
        #expect(since == LinkMilliseconds(5_000))
        let waitsPastTheWindow = judge.waitsOutImplausibleFix(since: &since, at: LinkMilliseconds(5_000 + Self.rules.implausibleFixWindowMs))
        #expect(!waitsPastTheWindow)
    }
}
