@testable import FairFuelPull
import FairFuelReports
import FairFuelStore
import Foundation
import Testing

/// A hub on a database (`fairfuel hub --db FILE`): the same rules as a hub directory (latest
/// revision wins, a deletion stays), each message one small transaction, a directory's cars
/// imported once, and the family's views over it the same as over the directory.
@Suite struct HubDatabaseTests {
    static let vehicle = HubCollectorTests.vehicle

    static func temporary() -> String { NSTemporaryDirectory() + "fairfuel-hubdb-\(UUID().uuidString.prefix(8))" }

    static func family(_ directory: String) throws -> String {
        FamilyView(try FamilyBooks.load(directories: try FamilyBooks.carDirectories([directory]))).json
    }

    /// Trips, a correction, a deletion and a split: what both hubs are given.
    static let messages: [(String, [UInt8])] = [
        ("trip", HubCollectorTests.trip(1, revision: 0, driver: "Alice", message: 1)),
        ("trip", HubCollectorTests.trip(2, revision: 0, driver: "Alice", message: 2)),
        ("trip", HubCollectorTests.trip(1, revision: 1, driver: "Bob", message: 3)),
        ("trip", HubCollectorTests.trip(1, revision: 0, driver: "Alice", message: 1)),
        ("trip", HubCollectorTests.trip(2, revision: 1, driver: "", message: 4, deleted: true)),
        ("trip", HubCollectorTests.trip(3, revision: 0, driver: "Cara", message: 5)),
        ("split", HubCollectorTests.split(12, message: 6)),
    ]

    @Test func aDatabaseHubKeepsWhatADirectoryHubKeepsAndTheFamilyViewIsTheSame() throws {
        let root = Self.temporary()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try HubCollector(directory: root + "/files", prefix: "fairfuel")
        let database = try HubRecordStore(path: root + "-hub.db")
        defer { try? FileManager.default.removeItem(atPath: root + "-hub.db") }
        let db = try HubCollector(directory: root + "/db", prefix: "fairfuel", database: database)
        for (kind, payload) in Self.messages {
            let topic = "fairfuel/\(Self.vehicle)/\(kind)"
            #expect(try files.receive(topic: topic, payload: payload) == db.receive(topic: topic, payload: payload))
        }
        try files.flush()
        try db.flush()
        #expect(db.counters == files.counters && db.counters.kept == 6 && db.counters.stale == 1)
        #expect(try database.recordCount() == 4, "trips 1, 2 (deleted), 3 and split 12")
        #expect(try database.records(vehicle: Self.vehicle).first { $0.kind == "trip" && $0.id == 2 }?.deleted == true)
        // Nothing was written per car: the database holds the records.
        #expect(!FileManager.default.fileExists(atPath: root + "/db/\(Self.vehicle)"))
        // The views read the database's rows in memory: the same books as the directory's files, no copy written.
        #expect(FamilyView(try FamilyBooks.load(pullsOrHubs: [root + "-hub.db"])).json == (try Self.family(root + "/files")))
        let states = try HubDatabaseViews.carStates([root + "-hub.db"]).states
        #expect(states.map(\.source) == ["\(root)-hub.db (car \(Self.vehicle))"] && states.allSatisfy(\.isHubCopy))
        #expect(try PulledCarState.read(directory: root + "/files/" + Self.vehicle).trips == states.first?.trips)
        // The directory and the database are the same car: refused by name, as two directories are.
        #expect {
            _ = try FamilyBooks.load(pullsOrHubs: [root + "/files", root + "-hub.db"])
        } throws: { error in
            "\(error)".contains("\(root)-hub.db (car \(Self.vehicle)) and \(root)/files/\(Self.vehicle) hold the same car")
        }
    }

    @Test func aDirectorysCarsAreImportedOnce() throws {
        let root = Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try HubCollector(directory: root, prefix: "fairfuel")
        for (kind, payload) in Self.messages { try files.receive(topic: "fairfuel/\(Self.vehicle)/\(kind)", payload: payload) }
        try files.flush()
        let database = try HubRecordStore(path: root + "/hub.db")
        let hub = try HubCollector(directory: root, prefix: "fairfuel", database: database)
        #expect(try hub.importDirectoryOnce() == 4)
        #expect(try hub.importDirectoryOnce() == 0, "once")
        let again = try HubCollector(directory: root, prefix: "fairfuel", database: try HubRecordStore(path: root + "/hub.db"))
        #expect(try again.importDirectoryOnce() == 0, "remembered by the database")
        #expect(try database.recordCount() == 4)
        // What was imported counts as kept: a resend is stale, a correction replaces.
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/trip", payload: HubCollectorTests.trip(3, revision: 0, driver: "Cara", message: 5)) == .stale)
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/trip", payload: HubCollectorTests.trip(3, revision: 1, driver: "Anna", message: 7)) == .kept)
    }
}
