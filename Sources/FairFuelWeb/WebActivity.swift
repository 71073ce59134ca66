import Hummingbird
import Synchronization

/// Requests in flight and when the last one ended: what the idle exit waits on (socket activation
/// starts the app again at the next request).
final class WebActivity: Sendable {
    private struct State {
        var inFlight = 0
        var lastEnded = ContinuousClock.now
    }

    private let state = Mutex(State())

    func began() { state.withLock { $0.inFlight += 1 } }

    func ended() {
        state.withLock {
            $0.inFlight -= 1
            $0.lastEnded = .now
        }
    }

    /// Returns once no request has been in flight for `seconds`.
    func waitUntilIdle(seconds: Int) async throws {
        let quiet = Duration.seconds(seconds)
        while true {
            let left: Duration? = state.withLock { state in
                guard state.inFlight == 0 else { return quiet }
                let idle = ContinuousClock.now - state.lastEnded
                return idle >= quiet ? nil : quiet - idle
            }
            guard let left else { return }
            try await Task.sleep(for: min(left, .seconds(1)))
        }
    }
}

/// Counts every request in and out of the app.
struct ActivityMiddleware<Context: RequestContext>: RouterMiddleware {
    let activity: WebActivity

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        activity.began()
        defer { activity.ended() }
        return try await next(request, context)
    }
}
