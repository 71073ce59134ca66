import FairFuelCore

/// Whether a drive without a tap goes on as the last driver's trip: the trip that waits, the
/// car's moving off while it waits, and the rules that judge both (`ContinuityThresholds`).
/// `DrivingMonitor` feeds it and performs what it decides.
struct ContinuityJudge: Sendable {
    /// Where the wait for the last trip stands.
    enum State: Sendable {
        /// No trip waits to go on.
        case none
        /// A trip waits; the car stands (or only wandered).
        case waiting(ContinuationCandidate)
        /// A trip waits and the car has moved off: the beacon, or the window, decides.
        case deciding(ContinuationCandidate, MoveOff)
    }

    /// The car's moving off while a trip waits.
    struct MoveOff: Sendable, Equatable {
        /// The step that started the decision.
        var since: LinkMilliseconds
        /// When the car moved off: `since`, or, after a GNSS outage bridged across (a tunnel, a
        /// car park's ramp), the last fix before it, where the car still stood.
        var movedOffAt: LinkMilliseconds
        /// Driven since moving off.
        var meters: Double
    }

    /// The session open when the MCU restarted, with its last fix on the old MCU's clock: the
    /// first fix that anchors UTC again says whether the trip can be going on.
    struct OpenAcrossRestart: Sendable {
        var driver: DriverID
        var startedAt: LinkMilliseconds
        var startUTCMs: Int64
        var lastFixAt: LinkMilliseconds
        var lastFixUTCMs: Int64
        var latitude: Double
        var longitude: Double
        /// When a fix first put the car somewhere it could not have reached.
        var implausibleSince: LinkMilliseconds?
    }

    /// Driving this far without the last driver's beacon ends the wait for it.
    static let movedOffMeters = 50.0

    let rules: ContinuityThresholds
    /// The fastest speed the motion trusts, for what a car could have covered in a gap.
    let maximumMetersPerSecond: Double
    private(set) var state = State.none
    /// The driver of a trip whose continuation was refused: a candidate for the untracked
    /// drive that follows, until the car stands still again.
    var refusedDriver: DriverID?
    /// The session open across an MCU restart, until the receiver's time judges it.
    var openAcrossRestart: OpenAcrossRestart?

    init(rules: ContinuityThresholds, maximumMetersPerSecond: Double) {
        self.rules = rules
        self.maximumMetersPerSecond = maximumMetersPerSecond
    }

    /// The trip that waits, in either state; setting it keeps the state (nil: none waits).
    var candidate: ContinuationCandidate? {
        get {
            switch state {
            case .none: nil
            case let .waiting(waiting), let .deciding(waiting, _): waiting
            }
        }
        set {
            switch (newValue, state) {
            case (nil, _): state = .none
            case let (waiting?, .deciding(_, moveOff)): state = .deciding(waiting, moveOff)
            case let (waiting?, _): state = .waiting(waiting)
            }
        }
    }

    /// The car's moving off, while the decision is pending.
    var moveOff: MoveOff? {
        if case let .deciding(_, moveOff) = state { return moveOff }
        return nil
    }

    /// A trip starts waiting, the car standing.
    mutating func wait(for trip: ContinuationCandidate) {
        state = .waiting(trip)
    }

    /// No trip waits any more.
    mutating func clear() {
        state = .none
    }

    /// The car moved off at `step` while the trip waits: the decision starts.
    mutating func startDeciding(at step: LinkMilliseconds, movedOffAt: LinkMilliseconds, meters: Double) {
        guard let waiting = candidate else { return }
        state = .deciding(waiting, MoveOff(since: step, movedOffAt: movedOffAt, meters: meters))
    }

    /// A step while deciding: counts its distance; a standing car that covered less than
    /// `movedOffMeters` in the decision window was speed noise, and the trip waits again. True
    /// when the decision goes on.
    mutating func stepWhileDeciding(meters: Double, moving: Bool, at time: LinkMilliseconds) -> Bool {
        guard case .deciding(let waiting, var moveOff) = state else { return false }
        moveOff.meters += meters
        if !moving && moveOff.meters < Self.movedOffMeters && time.value - moveOff.since.value > rules.decisionWindowMs {
            state = .waiting(waiting)
            return false
        }
        state = .deciding(waiting, moveOff)
        return true
    }

    /// Whether a car could have covered the straight line `chord` in `gapMs`: at the fastest
    /// speed the motion trusts, plus 100 m of the fixes' own error.
    func couldCover(_ chord: Meters, inMs gapMs: Int64) -> Bool {
        chord.value <= maximumMetersPerSecond * Double(max(0, gapMs)) / 1000 + 100
    }

    /// A fix after a restart that the trip could not have reached: true while the restart's
    /// judgement still waits for one that agrees (`implausibleFixWindowMs` from the first such
    /// fix, which `since` keeps), false once the window has passed.
    func waitsOutImplausibleFix(since: inout LinkMilliseconds?, at time: LinkMilliseconds) -> Bool {
        let first = since ?? time
        since = first
        return time.value - first.value < rules.implausibleFixWindowMs
    }

    /// What the decision comes to at `time`, the car having moved off: `parkedMs` is how long
    /// it stood, `evidence` whether the driver is back (their beacon aboard, or the rules'
    /// stand-in without one).
    func verdict(parkedMs: Int64, evidence: Bool, at time: LinkMilliseconds) -> Verdict {
        guard let moveOff else { return .wait }
        if parkedMs > rules.newTripMaxStopMs { return .drop }
        if evidence { return .resume(continuing: parkedMs <= rules.sameTripMaxStopMs) }
        if time.value - moveOff.since.value > rules.decisionWindowMs && moveOff.meters >= Self.movedOffMeters { return .drop }
        return .wait
    }

    /// A decision about the waiting trip.
    enum Verdict: Equatable {
        /// Not yet.
        case wait
        /// The driver's trip goes on: the same session (`continuing`) or a new one.
        case resume(continuing: Bool)
        /// The trip will not go on.
        case drop
    }
}
