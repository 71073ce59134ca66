@testable import FairFuelPull
import FairFuelStore
import Foundation
import Testing

/// The hub's command log, in a hub directory's file and in the hub's database: a command is pending
/// until its car's answer arrives; an answer to nothing pending (another hub's, a repeat, a forged
/// topic) changes nothing; a command withdrawn (never taken by the broker) is not listed; the
/// database keeps the newest answered ones and every pending one.
@Suite struct HubCommandLogTests {
    static let vehicle = "0123456789abcdef0123456789abcdef"

    static func result(_ id: String, _ outcome: String, reason: String? = nil, vehicle: String = vehicle) -> (String, [UInt8]) {
        let reasonJSON = reason.map { ",\"reason\":\"\($0)\"" } ?? ""
        return ("fairfuel/\(vehicle)/command/result", Array("{\"id\":\"\(id)\",\"outcome\":\"\(outcome)\"\(reasonJSON)}".utf8))
    }

    /// Both keepers go through the same steps and end with the same commands.
    static func exercise(_ log: any HubCommandKeeping) throws -> [HubCommandEntry] {
        try log.sent(vehicle: vehicle, id: "c1", name: "refuel_add", atUTCMs: 1_000)
        try log.sent(vehicle: vehicle, id: "c2", name: "settle", atUTCMs: 2_000)
        try log.sent(vehicle: vehicle, id: "c3", name: "trip_assign", atUTCMs: 3_000)
        #expect(try log.pendingCount(vehicle: vehicle) == 3)
        let (topic, applied) = result("c1", "applied", reason: "refuel 4 added")
        #expect(try log.answer(topic: topic, payload: applied, atUTCMs: 4_000))
        // The same answer again, one for an id never sent, another car's, and a made-up outcome: nothing.
        #expect(try !log.answer(topic: topic, payload: applied, atUTCMs: 4_001))
        let (_, unknown) = result("c9", "applied")
        #expect(try !log.answer(topic: topic, payload: unknown, atUTCMs: 4_002))
        let (otherTopic, other) = result("c2", "applied", vehicle: "ffffffffffffffffffffffffffffffff")
        #expect(try !log.answer(topic: otherTopic, payload: other, atUTCMs: 4_003))
        let (_, madeUp) = result("c2", "done")
        #expect(try !log.answer(topic: topic, payload: madeUp, atUTCMs: 4_004))
        #expect(try !log.answer(topic: "fairfuel/\(vehicle)/command", payload: applied, atUTCMs: 4_005))
        let (_, refused) = result("c2", "refused", reason: "no refuel with id 9")
        #expect(try log.answer(topic: topic, payload: refused, atUTCMs: 5_000))
        try log.withdrawn(vehicle: vehicle, id: "c3")
        #expect(try log.pendingCount(vehicle: vehicle) == 0)
        return try log.commands(vehicle: vehicle)
    }

    static let expected = [
        HubCommandEntry(vehicle: vehicle, id: "c1", name: "refuel_add", sentUTCMs: 1_000, state: "applied", reason: "refuel 4 added"),
        HubCommandEntry(vehicle: vehicle, id: "c2", name: "settle", sentUTCMs: 2_000, state: "refused", reason: "no refuel with id 9"),
    ]

    @Test func aDirectoryAndADatabaseKeepTheSameCommandsAndAnswers() throws {
        let root = NSTemporaryDirectory() + "fairfuel-hubcmd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try Self.exercise(HubCommandLog(directory: root + "/dir")) == Self.expected)
        #expect(try Self.exercise(HubDatabaseCommandLog(HubRecordStore(path: root + "/hub.db"))) == Self.expected)
        // Read again from the files: what a restarted hub (or `hub status`) sees.
        #expect(try HubCommandLog.read(directory: root + "/dir") == Self.expected)
        #expect(try HubRecordStore(path: root + "/hub.db").commands(vehicle: nil) == Self.expected)
    }

    @Test func theDatabaseKeepsTheNewestAnsweredCommandsAndEveryPendingOne() throws {
        let root = NSTemporaryDirectory() + "fairfuel-hubcmd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try HubRecordStore(path: root + "/hub.db")
        let log = HubDatabaseCommandLog(store)
        let answered = HubCommandSQL.maximumAnswered + 5
        try store.inOneTransaction {
            try log.sent(vehicle: Self.vehicle, id: "old-pending", name: "settle", atUTCMs: 0)
            for index in 0..<answered {
                try log.sent(vehicle: Self.vehicle, id: "a\(index)", name: "settle", atUTCMs: Int64(index + 1))
                let (topic, payload) = Self.result("a\(index)", "applied")
                #expect(try log.answer(topic: topic, payload: payload, atUTCMs: Int64(10_000 + index)))
            }
        }
        let kept = try log.commands(vehicle: Self.vehicle)
        #expect(kept.count == HubCommandSQL.maximumAnswered + 1)
        #expect(kept.first?.id == "old-pending" && kept.first?.state == "pending")
        // The five oldest answers went.
        #expect(!kept.contains { ["a0", "a1", "a2", "a3", "a4"].contains($0.id) } && kept.contains { $0.id == "a5" })
    }
}
