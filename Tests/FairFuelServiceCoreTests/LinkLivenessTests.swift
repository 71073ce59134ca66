import FairFuelCore
@testable import FairFuelServiceCore
import Testing

/// The link's life with plain numbers: opens that fail back off, an open link that goes quiet
/// is silent once (then again after each reopen), and a frame ends the silence.
@Suite struct LinkLivenessTests {
    static func t(_ ms: Int64) -> LinkMilliseconds { LinkMilliseconds(ms) }
    static func fresh() -> LinkLiveness {
        LinkLiveness(silenceLimitMs: 10_000, backoff: ReconnectBackoff(minimumMs: 500, maximumMs: 4_000))
    }

    @Test func failedOpensBackOffAndSayEachNewReasonOnce() {
        var liveness = Self.fresh()
        #expect(liveness.wantsLink(at: Self.t(0)))
        let first = liveness.openFailed("no such port", at: Self.t(0))
        #expect(first)
        #expect(!liveness.wantsLink(at: Self.t(499)))
        #expect(liveness.wantsLink(at: Self.t(500)))
        let again = liveness.openFailed("no such port", at: Self.t(500))
        #expect(!again, "the same reason is not said again")
        #expect(liveness.millisecondsUntilDue(at: Self.t(500)) == 1_000, "the second failure waits twice as long")
        let other = liveness.openFailed("busy", at: Self.t(1_500))
        #expect(other)
        #expect(liveness.millisecondsUntilDue(at: Self.t(1_500)) == 2_000)
        liveness.opened(by: "libserialport", at: Self.t(3_500))
        #expect(liveness.isUp && liveness.opener == "libserialport")
        #expect(!liveness.wantsLink(at: Self.t(10_000)))
    }

    @Test func anOpenLinkGoesSilentOnceThenContinuesAfterEachReopen() {
        var liveness = Self.fresh()
        liveness.opened(by: "termios", at: Self.t(0))
        let quiet = liveness.heard(at: Self.t(1_000))
        #expect(quiet == nil)
        let notYet = liveness.checkSilence(at: Self.t(10_999))
        #expect(notYet == .none)
        #expect(liveness.millisecondsUntilDue(at: Self.t(10_999)) == 1)
        let began = liveness.checkSilence(at: Self.t(11_000))
        #expect(began == .began(seconds: 10, framesEverHeard: true))
        #expect(!liveness.isUp && liveness.reconnects == 1 && liveness.silentSince == Self.t(1_000))
        // Reopened, still nothing: silent again, counted from the reopen, reopened later each time.
        liveness.opened(by: "termios", at: Self.t(11_500))
        let continues = liveness.checkSilence(at: Self.t(21_500))
        #expect(continues == .continues(seconds: 20))
        #expect(liveness.millisecondsUntilDue(at: Self.t(21_500)) == 1_000)
        liveness.opened(by: "termios", at: Self.t(22_500))
        let silentMs = liveness.heard(at: Self.t(23_000))
        #expect(silentMs == 22_000, "the silence lasted from the last frame to this one")
        #expect(liveness.silentSince == nil)
    }

    @Test func aPortThatNeverSpokeIsSilentWithoutFrames() {
        var liveness = Self.fresh()
        liveness.opened(by: "termios", at: Self.t(5_000))
        let silence = liveness.checkSilence(at: Self.t(15_000))
        #expect(silence == .began(seconds: 10, framesEverHeard: false))
    }

    @Test func aLostPortIsDownNotSilentAndReopensSoon() {
        var liveness = Self.fresh()
        liveness.opened(by: "termios", at: Self.t(0))
        _ = liveness.checkSilence(at: Self.t(10_000))
        liveness.opened(by: "termios", at: Self.t(10_500))
        liveness.lost(at: Self.t(11_000))
        #expect(liveness.silentSince == nil)
        #expect(liveness.reconnects == 2)
        #expect(liveness.millisecondsUntilDue(at: Self.t(11_000)) == 500, "the first reopen after a loss waits the shortest")
    }
}
