/// How many photo uploads are read, stripped and stored at once: each holds its body, the stripped
/// copy and SQLite's blob in memory, and the unit runs under `MemoryMax=96M`. Others wait their turn
/// (their bodies stay in the socket meanwhile); past `maximumWaiting` they are told to try again.
actor UploadGate {
    let permits: Int
    let maximumWaiting: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(permits: Int = 1, maximumWaiting: Int = 8) {
        self.permits = permits
        self.maximumWaiting = maximumWaiting
    }

    /// Runs `body` with a permit, waiting for one first.
    func withPermit<T: Sendable>(_ body: @Sendable () async throws(WebError) -> T) async throws(WebError) -> T {
        if inUse >= permits {
            guard waiting.count < maximumWaiting else {
                throw .tooManyRequests("other receipt photos are being saved: send it again in a moment", retryAfterSeconds: 2)
            }
            await withCheckedContinuation { waiting.append($0) }
        } else {
            inUse += 1
        }
        defer {
            // The permit passes straight to the next waiter, or is given back.
            if waiting.isEmpty { inUse -= 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
