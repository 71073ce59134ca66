import FairFuelConfiguration
@testable import FairFuelService
import FairFuelCore
import FairFuelStore
import Foundation
import Testing

/// The service opens its store under the board's page cache budget.
@Suite("Service runtime page cache")
struct ServiceRuntimePageCacheTests {
    @Test("the runtime's store has the board profile's page cache budget")
    func runtimeStoreUsesTheBoardBudget() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-runtime-cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var board = BoardProfile.piZero2W
        board.store.pageCacheKiB = 320
        let runtime = try ServiceRuntime(options: .init(
            board: board, storePath: directory + "/fairfuel.db", port: directory + "/mcu",
            logger: Logger(minimumLevel: .error, style: .plain, sink: { _ in })))
        #expect(try runtime.store.pageCacheLimitKiB() == 320)
        #expect(try runtime.store.connection.pragmaInt("cache_size") == -320)
    }
}
