@testable import FairFuelPull
import FairFuelStore
import Foundation
import Testing

/// A hub keeps its records in its directory's database by default (`HubDirectoryDatabase`): an old
/// hub directory is imported once and read no more, the views given the directory read the
/// database, the refusals of every instance are in it, and a car the hub waits for says so.
@Suite struct HubDirectoryDatabaseTests {
    static let vehicle = HubCollectorTests.vehicle

    static func scratch() throws -> String {
        let root = NSTemporaryDirectory() + "fairfuel-hubdir-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    static func topic(_ kind: String) -> String { "fairfuel/\(vehicle)/\(kind)" }

    /// A trip no car can drive: refused.
    static func impossibleTrip(message: Int) -> [UInt8] {
        Array(String(decoding: HubCollectorTests.trip(message, revision: 0, driver: "Anna", message: message), as: UTF8.self)
            .replacing("\"distance_m\":21406.3", with: "\"distance_m\":999999999999").utf8)
    }

    /// A hub directory from before (car directories, a refusal in its file) upgraded: imported once,
    /// the old directories kept and no longer written, and `family DIR` reads the database.
    @Test func anOldHubDirectoryIsImportedOnceAndItsDatabaseIsWhatTheViewsRead() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let old = try HubCollector(directory: root, prefix: "fairfuel")
        for (kind, payload) in HubDatabaseTests.messages { try old.receive(topic: Self.topic(kind), payload: payload) }
        #expect(try old.receive(topic: Self.topic("trip"), payload: Self.impossibleTrip(message: 90)) != .kept)
        try old.flush()
        let oldFamily = FamilyView(try FamilyBooks.load(pullsOrHubs: [root]))
        #expect(HubDirectoryDatabase.existing(in: root) == nil, "no database yet: the directory is read as before")
        let carFiles = root + "/\(Self.vehicle)/.fairfuel-pull/" + HubCollector.recordsName
        let carFilesBefore = try String(contentsOfFile: carFiles, encoding: .utf8)

        let database = try HubRecordStore(path: HubDirectoryDatabase.path(directory: root))
        let hub = try HubCollector(directory: root, prefix: "fairfuel", database: database)
        #expect(try hub.importDirectoryOnce() == 4)
        #expect(try database.refusals().map(\.messageID) == [90], "the directory's refusals come along")
        #expect(HubDirectoryDatabase.existing(in: root) == HubDirectoryDatabase.path(directory: root))
        #expect(FamilyView(try FamilyBooks.load(pullsOrHubs: [root])) == oldFamily, "the same book, now from the database")

        // Cara's trip corrected to Anna after the upgrade: the database has it, the old files do not.
        #expect(try hub.receive(topic: Self.topic("trip"), payload: HubCollectorTests.trip(3, revision: 1, driver: "Anna", message: 8)) == .kept)
        try hub.flush()
        #expect(try String(contentsOfFile: carFiles, encoding: .utf8) == carFilesBefore, "the old car directories are kept, not written")
        let family = FamilyView(try FamilyBooks.load(pullsOrHubs: [root]))
        #expect(family != oldFamily && !family.drivers.contains { $0.name == "Cara" }, "\(family.table)")
        #expect(family.drivers.first { $0.name == "Anna" }?.trips == 1, "\(family.table)")
    }

    /// Two instances of a `--share` group (two directories, one database): the refusals of both are
    /// in the database, written at the flush (a batch, one commit), none in either directory.
    @Test func theRefusalsOfTwoInstancesAreKeptTogetherInTheirDatabase() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/shared.db"
        let first = try HubCollector(directory: root + "/one", prefix: "fairfuel", database: try HubRecordStore(path: path))
        let second = try HubCollector(directory: root + "/two", prefix: "fairfuel", database: try HubRecordStore(path: path))
        for message in 1...3 { #expect(try first.receive(topic: Self.topic("trip"), payload: Self.impossibleTrip(message: message)) != .kept) }
        #expect(try second.receive(topic: Self.topic("trip"), payload: Self.impossibleTrip(message: 4)) != .kept)
        let reader = try HubRecordStore(path: path)
        #expect(try reader.refusals().isEmpty, "kept back until the flush")
        try first.flush()
        try second.flush()
        let refused = try HubDatabaseRefusals.read(reader)
        // Both instances' refusals, each once (two refusals in one millisecond have no order between them).
        #expect(refused.compactMap(\.messageID).sorted() == [1, 2, 3, 4], "\(refused)")
        #expect(refused.allSatisfy { $0.vehicle == Self.vehicle && $0.kind == "trip" && $0.reason.contains("distance_m") })
        for directory in ["one", "two"] { #expect(!FileManager.default.fileExists(atPath: "\(root)/\(directory)/\(HubRefusals.fileName)")) }
    }

    /// However many arrive, in one millisecond or many batches, the table keeps the newest 1,000.
    @Test func theRefusalTableKeepsOnlyTheNewest() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let database = try HubRecordStore(path: root + "/hub.db")
        let refusals = HubDatabaseRefusals(database)
        let total = HubRefusalSQL.maximumKept + 300
        for index in 0..<total {
            // Many in one millisecond: told apart by their key, so the bound is exact.
            try refusals.record(vehicle: "car-\(index)", kind: "trip", messageID: Int64(index), reason: "bad", receivedUTCMs: 1_000 + Int64(index / 100))
        }
        try refusals.flush()
        let kept = try database.refusals()
        #expect(kept.count == HubRefusalSQL.maximumKept)
        // The newest: the first three milliseconds' 300 went (within one millisecond the order is the batches').
        #expect(kept.allSatisfy { $0.receivedUTCMs >= 1_003 } && kept.contains { $0.messageID == Int64(total - 1) }, "\(kept.first.map { "\($0)" } ?? "")")
    }

    /// While a car's `resend` is pending in the hub's command log, `family` and its JSON say that
    /// car's records may be incomplete; once the car answers, they say nothing more.
    @Test func aPendingResendSaysTheBookMayBeIncomplete() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let database = try HubRecordStore(path: HubDirectoryDatabase.path(directory: root))
        let hub = try HubCollector(directory: root, prefix: "fairfuel", database: database)
        for (kind, payload) in HubDatabaseTests.messages { try hub.receive(topic: Self.topic(kind), payload: payload) }
        try hub.flush()
        let askedUTCMs: Int64 = 1_764_056_463_000  // 2025-11-25T07:41:03Z
        try database.commandSent(vehicle: Self.vehicle, id: "ask-1", name: "resend", sentUTCMs: askedUTCMs)
        try database.commandSent(vehicle: Self.vehicle, id: "settle-1", name: "settle", sentUTCMs: askedUTCMs + 5)
        try database.commandSent(vehicle: "car-without-records", id: "ask-2", name: "resend", sentUTCMs: askedUTCMs + 9)

        let books = try FamilyBooks.load(pullsOrHubs: [root])
        let label = try #require(books.cars.first?.label)
        #expect(books.waiting == [
            FamilyBooks.Waiting(car: label, vehicle: Self.vehicle, askedUTCMs: askedUTCMs),
            FamilyBooks.Waiting(car: "car-without-records", vehicle: "car-without-records", askedUTCMs: askedUTCMs + 9),
        ], "a pending settle is no reason; a car with nothing yet is named by its id")
        let view = FamilyView(books)
        #expect(view.table.contains("\(label): its records may be incomplete: the hub waits for what it missed (asked at 2025-11-25T07:41:03.000Z)"),
                "\(view.table)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(view.json.utf8)) as? [[String: Any]])
        let incomplete = try #require(json.first?["incomplete"] as? [[String: Any]], "\(view.json)")
        #expect(incomplete.map { $0["vehicle_id"] as? String } == [Self.vehicle, "car-without-records"])
        #expect(json.allSatisfy { ($0["incomplete"] as? [Any])?.count == 2 }, "every person's figures may lack the missing records")

        // The car answers: the book is whole again.
        #expect(try database.commandAnswered(vehicle: Self.vehicle, id: "ask-1", outcome: "applied", reason: nil, answeredUTCMs: askedUTCMs + 20))
        #expect(try database.commandAnswered(
            vehicle: "car-without-records", id: "ask-2", outcome: "refused", reason: "no", answeredUTCMs: askedUTCMs + 21))
        let whole = FamilyView(try FamilyBooks.load(pullsOrHubs: [root]))
        #expect(whole.waiting.isEmpty && !whole.table.contains("incomplete") && !whole.json.contains("incomplete"), "\(whole.table)")
    }

    /// A hub kept in car directories (`--car-directories`) lists its commands in its file: a resend pending there says so too.
    @Test func aCarDirectoryHubsPendingResendSaysSoToo() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hub = try HubCollector(directory: root, prefix: "fairfuel")
        for (kind, payload) in HubDatabaseTests.messages { try hub.receive(topic: Self.topic(kind), payload: payload) }
        try hub.flush()
        try HubCommandLog(directory: root).sent(vehicle: Self.vehicle, id: "ask-1", name: "resend", atUTCMs: 5_000)
        let books = try FamilyBooks.load(pullsOrHubs: [root])
        #expect(books.waiting.map(\.vehicle) == [Self.vehicle] && books.waiting.first?.car == books.cars.first?.label)
    }
}
