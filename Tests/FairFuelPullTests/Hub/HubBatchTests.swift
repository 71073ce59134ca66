import FairFuelPull
import FairFuelStore
import Foundation
import Testing

/// A poll round's messages stored in one transaction (`hold`, `storeHeld`): each checked alone, so
/// a refused one never spoils the others, and the outcome of every one the same as one at a time.
@Suite struct HubBatchTests {
    static let vehicle = HubCollectorTests.vehicle

    @Test func aRoundInOneTransactionKeepsWhatOneAtATimeKeepsAndARefusedOneSpoilsNothing() throws {
        let root = HubDatabaseTests.temporary()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let topic = "fairfuel/\(Self.vehicle)/"
        let impossible = Array(String(decoding: HubCollectorTests.trip(9, revision: 0, driver: "Eve", message: 9), as: UTF8.self)
            .replacingOccurrences(of: "\"distance_m\":21406.3", with: "\"distance_m\":999999999999").utf8)
        let round: [(String, [UInt8])] = HubDatabaseTests.messages.map { (topic + $0.0, $0.1) }
            + [(topic + "trip", impossible), (topic + "status", Array("{}".utf8)), (topic + "trip", HubCollectorTests.trip(4, revision: 0, driver: "Dan", message: 10))]
        let oneAtATime = try HubCollector(directory: root + "/single", prefix: "fairfuel", database: try HubRecordStore(path: root + "-single.db"))
        let expected = try round.map { topic, payload in try oneAtATime.receive(topic: topic, payload: payload) }

        let database = try HubRecordStore(path: root + "-batch.db")
        defer { for name in ["-single.db", "-batch.db"] { try? FileManager.default.removeItem(atPath: root + name) } }
        let hub = try HubCollector(directory: root + "/batch", prefix: "fairfuel", database: database)
        for (topic, payload) in round { hub.hold(topic: topic, payload: payload) }
        #expect(hub.heldCount == round.count && hub.wantsMessages)
        let stored = try hub.storeHeld(nowMs: 0) { Issue.record("nothing to log: \($0)") }
        #expect(stored.map(\.outcome) == expected && stored.map(\.topic) == round.map(\.0))
        #expect(hub.heldCount == 0 && hub.counters == oneAtATime.counters)
        #expect(hub.counters.kept == 7 && hub.counters.stale == 1 && hub.counters.refused == 1 && hub.counters.ignored == 1)
        #expect(try database.records(vehicle: Self.vehicle) == HubRecordStore(path: root + "-single.db").records(vehicle: Self.vehicle))
        #expect(try database.records(vehicle: Self.vehicle).map(\.id).sorted() == [1, 2, 3, 4, 12], "the impossible trip 9 left out")
        // A database hub keeps its refusals in the database, written at the flush.
        try hub.flush()
        #expect(try HubDatabaseRefusals.read(database).map(\.reason) == ["distance_m 999999999999 is outside 0...10000000"])

        // The same round again: every record stale (by record id and revision), nothing stored twice.
        for (topic, payload) in round { hub.hold(topic: topic, payload: payload) }
        let again = try hub.storeHeld(nowMs: 0) { Issue.record("nothing to log: \($0)") }
        #expect(again.filter { $0.outcome == .kept }.isEmpty && again.filter { $0.outcome == .stale }.count == 8)
        #expect(try database.recordCount() == 5)
    }

    @Test func theHeldMessagesAreBounded() throws {
        let root = HubDatabaseTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hub = try HubCollector(directory: root, prefix: "fairfuel", database: try HubRecordStore(path: root + "-hub.db"))
        defer { try? FileManager.default.removeItem(atPath: root + "-hub.db") }
        for id in 1...HubCollector.maximumHeldMessages {
            #expect(hub.wantsMessages, "room for message \(id)")
            hub.hold(topic: "fairfuel/\(Self.vehicle)/trip", payload: HubCollectorTests.trip(id, revision: 0, driver: "Ann", message: id))
        }
        #expect(!hub.wantsMessages, "a full hand reads no more")
        #expect(try hub.storeHeld(nowMs: 0) { _ in }.count == HubCollector.maximumHeldMessages)
        #expect(hub.wantsMessages && hub.counters.kept == HubCollector.maximumHeldMessages)
    }
}
