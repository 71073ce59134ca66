import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `fairfuel web` in the foreground: serves until SIGTERM or SIGINT, then returns (exit 0).
public enum WebServer {
    /// Runs `app` from synchronous code (the CLI's `run`), blocking until it has shut down: at a
    /// signal, or after `idleExitSeconds` without a request (0: never). `onRunning` gets the port.
    public static func runBlocking(_ app: WebApp, idleExitSeconds: Int = 0, onRunning: @escaping @Sendable (Int) async -> Void) throws {
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
        promise.completeWithTask {
            let logger = app.logger
            let server = ServiceGroup(configuration: .init(
                services: [app.application(logger: logger, onRunning: onRunning)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                if idleExitSeconds > 0 {
                    // Idle: the same graceful shutdown as at SIGTERM (requests in flight finish first).
                    group.addTask {
                        try await app.activity.waitUntilIdle(seconds: idleExitSeconds)
                        await server.triggerGracefulShutdown()
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        try promise.futureResult.wait()
    }
}
