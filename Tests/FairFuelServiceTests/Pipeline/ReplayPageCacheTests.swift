import FairFuelConfiguration
import FairFuelService
import FairFuelStore
import Foundation
import Testing

/// A replay runs under the board's page cache budget, so the soak measures the service's memory.
@Suite("Replay page cache")
struct ReplayPageCacheTests {
    @Test("a replay applies the board's page cache budget to the store it is given")
    func replayAppliesTheBoardBudget() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-replay-cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try TripStore(path: directory + "/replay.db")
        var board = BoardProfile.piZero2W
        board.store.pageCacheKiB = 384
        #expect(try store.pageCacheLimitKiB() != 384)
        _ = try Replay(capturePath: "-", store: store, board: board).run(note: "page cache") { _ in }
        #expect(try store.pageCacheLimitKiB() == 384)
    }
}
