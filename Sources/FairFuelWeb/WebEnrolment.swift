import NIOPosix
import Synchronization

/// A new driver's fob learnt by a tap at the car, through the running service's provisioning desk
/// (`learn-tag`, then `learn-beacon`, as `fairfuel provision` asks for them): what is awaited now and
/// how the last learning ended, for the live page. One learning at a time, as the desk takes one.
final class WebEnrolment: Sendable {
    enum Step: String, Sendable {
        case tag
        case beacon
    }

    enum Outcome: Sendable, Equatable {
        /// The service's `ok:` text (what it bound).
        case done(String)
        case failed(String)
    }

    struct State: Sendable, Equatable {
        var driverID: Int64
        var driverName: String
        var step: Step
        var startedAt: ContinuousClock.Instant
        var timeoutSeconds: Int
        /// nil while the service waits for the tap or the beacon.
        var outcome: Outcome?

        /// Whole seconds left of the wait (0 once it is over).
        func secondsLeft(now: ContinuousClock.Instant = .now) -> Int {
            guard outcome == nil else { return 0 }
            let left = startedAt + .seconds(timeoutSeconds) - now
            return max(0, Int(left.components.seconds))
        }
    }

    /// How long the service waits for a tap, and for a beacon held next to the dongle (and how long it is held).
    static let tagTimeoutSeconds = 90
    static let beaconTimeoutSeconds = 30
    static let beaconHoldSeconds = 5

    private let state = Mutex<State?>(nil)

    var current: State? { state.withLock { $0 } }

    /// Asks the service to learn `step` for the driver, in the background (the request blocks until the
    /// tap, the beacon or the timeout): refused while another learning waits, or when no service answers.
    func start(
        driverID: Int64, driverName: String, step: Step, askService: @escaping @Sendable (String, Int32) -> ServiceAnswer
    ) async throws(WebError) {
        if case let .notRunning(reason) = await Self.blocking({ askService("status", 2) }) {
            throw .refused("the car's fairfuel service does not answer (\(reason)): start it, then tap the fob again")
        }
        let timeout = step == .tag ? Self.tagTimeoutSeconds : Self.beaconTimeoutSeconds
        let started = State(driverID: driverID, driverName: driverName, step: step, startedAt: .now, timeoutSeconds: timeout)
        let busy: State? = state.withLock { state in
            if let state, state.outcome == nil { return state }
            state = started
            return nil
        }
        if let busy { throw .refused("the car is already waiting for \(busy.driverName)'s \(busy.step.rawValue): wait for it to end") }
        let request = step == .tag
            ? "learn-tag \(timeout) \(driverName)" : "learn-beacon \(timeout) \(Self.beaconHoldSeconds) \(driverName)"
        Task.detached {
            // The service answers when it is done: at most the timeout, plus a margin.
            let answer = await Self.blocking { askService(request, Int32(timeout + 10)) }
            let outcome: Outcome = switch answer {
            case let .answered(text) where text.hasPrefix("ok"): .done(Self.line(text, dropping: "ok: "))
            case let .answered(text): .failed(Self.line(text, dropping: "error: "))
            case let .notRunning(reason): .failed(reason)
            }
            self.state.withLock { state in
                if state?.startedAt == started.startedAt { state?.outcome = outcome }
            }
        }
    }

    /// A blocking control request on NIO's thread pool, so that it holds no request thread.
    static func blocking(_ body: @escaping @Sendable () -> ServiceAnswer) async -> ServiceAnswer {
        do { return try await NIOThreadPool.singleton.runIfActive(body) } catch { return .notRunning("the app is shutting down") }
    }

    static func line(_ text: String, dropping prefix: String) -> String {
        var line = Substring(text)
        while line.last == "\n" { line.removeLast() }
        if line.hasPrefix(prefix) { line = line.dropFirst(prefix.count) }
        return String(line)
    }
}
