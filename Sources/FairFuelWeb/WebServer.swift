import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// `fairfuel web` in the foreground: serves until SIGTERM or SIGINT, then returns (exit 0).
public enum WebServer {
    /// Runs `app` from synchronous code (the CLI's `run`), blocking until it has shut down.
    /// `onRunning` gets the port it listens on.
    public static func runBlocking(_ app: WebApp, onRunning: @escaping @Sendable (Int) async -> Void) throws {
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
        promise.completeWithTask {
            try await app.application(onRunning: onRunning).runService(gracefulShutdownSignals: [.sigterm, .sigint])
        }
        try promise.futureResult.wait()
    }
}
