import FairFuelSQLite
import FairFuelStore
import Testing

/// `StoreConfiguration.pageCacheKiB`: SQLite's page cache is capped on every connection the store opens.
@Suite("Store page cache budget")
struct TripStorePageCacheTests {
    @Test("a budget is in force after opening, for the writer and for a reader, and again after reopening")
    func budgetInForceAfterOpening() throws {
        let path = temporaryStorePath()
        let configuration = StoreConfiguration(pageCacheKiB: 256)
        let writer = try TripStore(path: path, configuration: configuration)
        #expect(try writer.connection.pragmaInt("cache_size") == -256)
        #expect(try writer.pageCacheLimitKiB() == 256)
        let reader = try TripStore(path: path, readOnly: true, configuration: configuration)
        #expect(try reader.connection.pragmaInt("cache_size") == -256)
        let reopened = try TripStore(path: path, configuration: StoreConfiguration(pageCacheKiB: 512))
        #expect(try reopened.pageCacheLimitKiB() == 512)
    }

    @Test("without a budget the connection keeps SQLite's default")
    func noBudgetKeepsTheDefault() throws {
        let store = try TripStore(path: temporaryStorePath())
        let sqliteDefault = try SQLiteConnection(path: ":memory:", mode: .readWrite).pragmaInt("cache_size")
        #expect(try store.connection.pragmaInt("cache_size") == sqliteDefault)
        #expect(sqliteDefault != -256)
    }

    @Test("a budget set on an open store takes effect; one below 64 KiB is raised to 64")
    func limitOnAnOpenStore() throws {
        let store = try TripStore(path: temporaryStorePath())
        try store.limitPageCache(kib: 300)
        #expect(try store.pageCacheLimitKiB() == 300)
        try store.limitPageCache(kib: 0)
        #expect(try store.pageCacheLimitKiB() == 64)
    }

    @Test("a cache_size in pages is reported in KiB")
    func pagesAreConvertedToKiB() throws {
        let store = try TripStore(path: temporaryStorePath())
        try store.connection.execute("PRAGMA cache_size = 100")
        let pageSize = try store.connection.pragmaInt("page_size")
        #expect(try store.pageCacheLimitKiB() == Int(100 * pageSize / 1024))
    }
}
