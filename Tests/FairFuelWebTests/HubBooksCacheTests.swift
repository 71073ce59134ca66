import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Testing
import TestSupport

/// The hub's books and views are kept between requests and made again once the hub commits a record.
@Suite struct HubBooksCacheTests {
    @Test func aRecordTheHubCommitsIsInTheViewMadeNextAndTheKeptViewsAreBounded() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hubcache-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try HubFamilyWebTests.hubDatabase(directory)
        let family = try HubFamily(path: path)
        let golf = HubFamilyWebTests.golf
        func golfTrips() throws -> [Int64] { try family.books().cars.first { $0.vehicleID == golf }?.trips.map(\.id) ?? [] }
        #expect(try golfTrips().count == 3)
        let now: Int64 = 1_796_000_000_000  // in November 2026
        let novemberBefore = try family.view(month: nil, nowUTCMs: now).json
        let novemberAsked = try family.view(month: "2026-11", nowUTCMs: now).json
        #expect(!novemberBefore.contains("2026-11-28"))
        #expect(!novemberBefore.contains("\"id\":4,") && novemberAsked == novemberBefore)
        let version = try HubDataVersion(path: path)
        let before = try version.current()
        #expect(try golfTrips().count == 3 && (try version.current()) == before, "reading the books commits nothing")

        // The hub collecting: another connection commits a fourth trip of the Golf's.
        let hub = try HubRecordStore(path: path)
        let trip = HubFamilyWebTests.trip(golf, name: "Golf", id: 4, driver: "Bob", start: "2026-11-28T07:41:03.000Z", km: 5, liters: 0.4)
        #expect(try hub.offer(vehicle: golf, kind: "trip", id: 4, revision: 0, deleted: false, messageID: 4, payload: trip, storedUTCMs: 1_795_000_000_000) == .kept)
        #expect(try version.current() != before)
        #expect(try golfTrips().count == 4, "the books after the commit hold the new trip")
        let novemberAfter = try family.view(month: nil, nowUTCMs: now).json
        #expect(novemberAfter.contains("\"id\":4,") && novemberAfter != novemberBefore, "the view made again after the commit")
        #expect(novemberAfter.contains("2026-11-28"), "the figures made again show the new trip's day")

        // A month asked in the URL is kept, but not without bound.
        for year in 2000..<2040 { _ = try family.view(month: "\(year)-01", nowUTCMs: now) }
        #expect(family.cache.summariesCount <= HubBooksCache.summariesLimit)
    }
}
