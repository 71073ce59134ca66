import FairFuelCore

/// The states of a driving session, as in the original design.
public enum SessionState: String, Sendable, CaseIterable {
    case idle = "IDLE"
    case starting = "STARTING"
    case active = "ACTIVE"
    case stopping = "STOPPING"
    case switching = "SWITCHING"
    case ended = "ENDED"
}

/// Why a session ended; the names are stored and shown.
public enum SessionEndReason: String, Sendable, CaseIterable {
    case departed
    case switched
    case manual
    case powerLoss = "power_loss"
}

/// A signal for the dongle's buzzer and LED.
public enum FeedbackSignal: String, Sendable, CaseIterable {
    case accepted, rejected, sessionStarted, sessionEnded, provisioning
}

/// What the session machine reports as it moves.
public enum SessionSignal: Sendable, Equatable {
    case transition(from: SessionState, to: SessionState, at: LinkMilliseconds)
    case started(driver: DriverID, at: LinkMilliseconds)
    /// `at` is the end: the end of the cooldown, or the moment of the tap, manual end or power loss.
    case ended(driver: DriverID, startedAt: LinkMilliseconds, at: LinkMilliseconds, reason: SessionEndReason)
    case feedback(FeedbackSignal)
}

/// The session state machine: taps start and switch sessions; departure ends them
/// after a cooldown in which the driver may come back.
///
/// STARTING, SWITCHING and ENDED are passed through within one event and
/// reported as transitions; the machine rests in IDLE, ACTIVE or STOPPING.
public struct SessionMachine: Sendable {
    public let cooldownMs: Int64
    public private(set) var state: SessionState = .idle
    public private(set) var driver: DriverID?
    public private(set) var startedAt: LinkMilliseconds?
    /// When STOPPING began.
    public private(set) var stoppingSince: LinkMilliseconds?

    public init(cooldownMs: Int64) {
        self.cooldownMs = cooldownMs
    }

    /// A tag was tapped; `driver` is who it belongs to, nil for an unknown tag.
    public mutating func tap(driver tapped: DriverID?, at time: LinkMilliseconds, _ emit: (SessionSignal) -> Void) {
        guard let tapped else {
            emit(.feedback(.rejected))
            return
        }
        switch state {
        case .idle, .starting, .switching, .ended:
            move(to: .starting, at: time, emit)
            begin(tapped, at: time, emit)
        case .active, .stopping:
            if tapped == driver {
                if state == .stopping {
                    stoppingSince = nil
                    move(to: .active, at: time, emit)
                }
                emit(.feedback(.accepted))
            } else {
                move(to: .switching, at: time, emit)
                end(.switched, at: time, emit, restingIn: .switching)
                begin(tapped, at: time, emit)
            }
        }
    }

    /// Re-evaluates departure. `readyToStop` is true while the driver has been gone
    /// long enough and the vehicle has stood still long enough.
    public mutating func evaluate(readyToStop: Bool, at time: LinkMilliseconds, _ emit: (SessionSignal) -> Void) {
        switch state {
        case .active:
            if readyToStop {
                stoppingSince = time
                move(to: .stopping, at: time, emit)
            }
        case .stopping:
            guard let since = stoppingSince else { return }
            if !readyToStop {
                stoppingSince = nil
                move(to: .active, at: time, emit)
            } else if time.value - since.value >= cooldownMs {
                end(.departed, at: since + cooldownMs, emit, restingIn: .idle)
            }
        default:
            break
        }
    }

    /// Ends the open session (manual end, or shutdown); nothing happens when idle.
    public mutating func endSession(_ reason: SessionEndReason, at time: LinkMilliseconds, _ emit: (SessionSignal) -> Void) {
        guard state == .active || state == .stopping else { return }
        end(reason, at: time, emit, restingIn: .idle)
    }

    /// Puts the machine into ACTIVE for a session recovered from the store.
    public mutating func resume(driver: DriverID, startedAt: LinkMilliseconds) {
        state = .active
        self.driver = driver
        self.startedAt = startedAt
        stoppingSince = nil
    }

    private mutating func begin(_ newDriver: DriverID, at time: LinkMilliseconds, _ emit: (SessionSignal) -> Void) {
        driver = newDriver
        startedAt = time
        stoppingSince = nil
        move(to: .active, at: time, emit)
        emit(.started(driver: newDriver, at: time))
        emit(.feedback(.sessionStarted))
    }

    private mutating func end(
        _ reason: SessionEndReason, at time: LinkMilliseconds, _ emit: (SessionSignal) -> Void, restingIn next: SessionState
    ) {
        guard let current = driver, let start = startedAt else { return }
        // A switch ends the old session inside SWITCHING; other ends pass through ENDED.
        if next == .idle { move(to: .ended, at: time, emit) }
        emit(.ended(driver: current, startedAt: start, at: time, reason: reason))
        if reason != .switched { emit(.feedback(.sessionEnded)) }
        driver = nil
        startedAt = nil
        stoppingSince = nil
        if next == .idle { move(to: .idle, at: time, emit) }
    }

    private mutating func move(to next: SessionState, at time: LinkMilliseconds, _ emit: (SessionSignal) -> Void) {
        guard next != state else { return }
        emit(.transition(from: state, to: next, at: time))
        state = next
    }
}
