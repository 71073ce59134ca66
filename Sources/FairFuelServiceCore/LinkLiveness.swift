import FairFuelCore

/// Whether the MCU's link lives, on host time: up (and how the shell opened it) or down with
/// the backoff before the next open, and silence on an open link. The MCU sends a HEARTBEAT
/// every second, so an open link without a frame for the silence limit has a hung or
/// browned-out MCU behind it (a UART never hangs up, nor does a pseudo-terminal whose MCU is
/// stopped): the core then closes and reopens the port, backing off as failed opens do.
/// Plain values in, verdicts out; the core logs and acts on them.
struct LinkLiveness {
    /// What `checkSilence` found.
    enum Silence: Equatable {
        case none
        /// Silent for the first time since the last frame: warn, and reopen.
        case began(seconds: Int64, framesEverHeard: Bool)
        /// Still silent after a reopen: reopen again.
        case continues(seconds: Int64)
    }

    let silenceLimitMs: Int64
    private let backoff: ReconnectBackoff

    /// How the shell opened the port, nil while the link is down.
    private(set) var opener: String?
    var isUp: Bool { opener != nil }
    private var nextConnectAt = LinkMilliseconds(0)
    /// Opens failed since the link was last up, and the last one's message (said once).
    private var failedOpens = 0
    private var lastOpenError: String?
    private(set) var reconnects = 0
    /// Host time of the last frame (nil before the first) and of the last open: silence
    /// counts from the later of the two.
    private(set) var lastFrameAt: LinkMilliseconds?
    private var openedAt = LinkMilliseconds(0)
    /// When the current silence began, once it passed the limit; nil while the MCU talks.
    private(set) var silentSince: LinkMilliseconds?
    /// Reopens for this silence: they back off as failed opens do.
    private var silentReopens = 0

    init(silenceLimitMs: Int64, backoff: ReconnectBackoff) {
        self.silenceLimitMs = silenceLimitMs
        self.backoff = backoff
    }

    /// Whether the shell should open the link now (down, and its backoff has passed).
    func wantsLink(at now: LinkMilliseconds) -> Bool { !isUp && now >= nextConnectAt }

    /// Milliseconds until the next open is due (down) or the silence limit is reached (up).
    func millisecondsUntilDue(at now: LinkMilliseconds) -> Int64 {
        isUp
            ? max(0, silenceStart.value + silenceLimitMs - now.value)
            : max(0, nextConnectAt.value - now.value)
    }

    private var silenceStart: LinkMilliseconds { max(lastFrameAt ?? openedAt, openedAt) }

    mutating func opened(by opener: String, at now: LinkMilliseconds) {
        self.opener = opener
        openedAt = now
        lastOpenError = nil
        failedOpens = 0
    }

    /// An open failed; true when its message is new (worth a warning), false for a repeat.
    mutating func openFailed(_ message: String, at now: LinkMilliseconds) -> Bool {
        let isNew = message != lastOpenError
        lastOpenError = message
        failedOpens += 1
        nextConnectAt = now + backoff.delayMs(failures: failedOpens)
        return isNew
    }

    /// The port went away: down, not silent; the first reopen waits the shortest.
    mutating func lost(at now: LinkMilliseconds) {
        silentSince = nil
        silentReopens = 0
        close(reopenAfterMs: backoff.delayMs(failures: 1), at: now)
    }

    /// At `now` on an open link: whether it has gone silent (the link is then closed, to be
    /// reopened with backoff).
    mutating func checkSilence(at now: LinkMilliseconds) -> Silence {
        guard isUp, now.value - silenceStart.value >= silenceLimitMs else { return .none }
        let since = lastFrameAt ?? openedAt
        let seconds = (now.value - since.value) / 1_000
        let verdict: Silence
        if silentSince == nil {
            silentSince = since
            verdict = .began(seconds: seconds, framesEverHeard: lastFrameAt != nil)
        } else {
            verdict = .continues(seconds: seconds)
        }
        silentReopens += 1
        close(reopenAfterMs: backoff.delayMs(failures: silentReopens), at: now)
        return verdict
    }

    /// A frame arrived: returns how long the silence it ends lasted, nil when there was none.
    mutating func heard(at now: LinkMilliseconds) -> Int64? {
        lastFrameAt = now
        guard let since = silentSince else { return nil }
        silentSince = nil
        silentReopens = 0
        return now.value - since.value
    }

    /// The core stops: the link is down without a reconnect to count.
    mutating func stop() { opener = nil }

    private mutating func close(reopenAfterMs: Int64, at now: LinkMilliseconds) {
        opener = nil
        reconnects += 1
        nextConnectAt = now + reopenAfterMs
    }
}
