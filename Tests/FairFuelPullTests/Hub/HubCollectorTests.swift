import FairFuelPull
import Foundation
import Testing

/// The hub's rules on plain messages (no broker): the latest revision wins, a resend or an older
/// revision changes nothing, a deletion removes and stays removed, a removed refuel takes its split.
@Suite struct HubCollectorTests {
    static let vehicle = "0123456789abcdef0123456789abcdef"

    static func trip(_ id: Int, revision: Int, driver: String, message: Int, deleted: Bool = false) -> [UInt8] {
        if deleted {
            return Array("{\"v\":1,\"message_id\":\(message),\"vehicle\":\"\(vehicle)\",\"id\":\(id),\"revision\":\(revision),\"deleted\":true}".utf8)
        }
        return Array("""
            {"v":1,"message_id":\(message),"vehicle":"\(vehicle)","vehicle_name":"Golf","id":\(id),"revision":\(revision),\
            "driver":"\(driver)","driver_uuid":null,"start_utc":"2026-11-25T07:41:03.000Z","end_utc":"2026-11-25T08:06:10.000Z",\
            "end_reason":"departed","distance_km":21.406,"duration_s":1507,"idle_s":131,"harsh_accel":0,"harsh_brake":1,\
            "max_speed_kmh":96.4,"fuel_l":1.482,"moving_s":1376,"stopped_utc":null,"driver_left_utc":null,"distance_m":21406.3,"fuel_ml":1482.3}
            """.utf8)
    }

    static func split(_ id: Int, message: Int) -> [UInt8] {
        Array("""
            {"v":1,"message_id":\(message),"vehicle":"\(vehicle)","vehicle_name":"Golf","id":\(id),"revision":0,\
            "at_utc":"2026-11-25T17:20:00.000Z","liters":41.200,"cost_cents":7396,"full":true,"currency":"EUR",\
            "shares":[{"driver":"Alice","driver_uuid":null,"fuel_l":25.118,"cost_cents":4509},{"driver":"Bob","driver_uuid":null,"fuel_l":16.082,"cost_cents":2887}]}
            """.utf8)
    }

    func state(_ directory: String, _ file: String) -> String {
        (try? String(contentsOfFile: "\(directory)/\(Self.vehicle)/.fairfuel-pull/\(file)", encoding: .utf8)) ?? ""
    }

    @Test func theLatestRevisionWinsAndADeletionStaysDeleted() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hub = try HubCollector(directory: directory, prefix: "fairfuel")
        let topic = "fairfuel/\(Self.vehicle)/trip"
        #expect(try hub.receive(topic: topic, payload: Self.trip(1, revision: 0, driver: "Alice", message: 1)) == .kept)
        #expect(try hub.receive(topic: topic, payload: Self.trip(2, revision: 0, driver: "Alice", message: 2)) == .kept)
        #expect(try hub.receive(topic: topic, payload: Self.trip(1, revision: 0, driver: "Alice", message: 1)) == .stale, "a resend")
        #expect(try hub.receive(topic: topic, payload: Self.trip(1, revision: 1, driver: "Bob", message: 3)) == .kept, "a correction")
        #expect(try hub.receive(topic: topic, payload: Self.trip(1, revision: 0, driver: "Alice", message: 1)) == .stale, "older, late")
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/status", payload: Array("online".utf8)) == .ignored("status is not a record topic"))
        #expect(try hub.receive(topic: "fairfuel/../trip", payload: Self.trip(9, revision: 0, driver: "Eve", message: 9))
            == .ignored("vehicle id .. is not a plain id"))
        try hub.flush()
        var trips = state(directory, "trips.tsv").split(separator: "\n")
        #expect(trips.count == 2)
        #expect(trips[0].hasPrefix("1\t") && trips[0].contains("\tBob\t"), "\(trips)")
        #expect(trips[0].contains("\t21406.3\t") && trips[0].contains("\t1.4823\t"), "a pull's resolution: \(trips[0])")
        #expect(state(directory, "vehicle.tsv") == "Golf\tEUR\t2\tmetric\t\t\(Self.vehicle)\n")

        #expect(try hub.receive(topic: topic, payload: Self.trip(2, revision: 1, driver: "", message: 4, deleted: true)) == .kept)
        #expect(try hub.receive(topic: topic, payload: Self.trip(2, revision: 0, driver: "Alice", message: 2)) == .stale, "no resurrection")
        try hub.flush()
        trips = state(directory, "trips.tsv").split(separator: "\n")
        #expect(trips.count == 1 && trips[0].hasPrefix("1\t"), "\(trips)")

        // A restarted hub reads what it kept: the same rules hold.
        let restarted = try HubCollector(directory: directory, prefix: "fairfuel")
        #expect(restarted.clientID == hub.clientID, "the session's client id is kept")
        #expect(try restarted.receive(topic: topic, payload: Self.trip(1, revision: 1, driver: "Bob", message: 3)) == .stale)
        #expect(try HubCollector.carDirectories(in: directory) == ["\(directory)/\(Self.vehicle)"])
    }

    /// Durations and the top speed at a pull's resolution (ms, 0.01 m/s) from a newer car, in whole seconds
    /// and 0.1 km/h from an older one: a hub's summary and report are then a USB pull's to the digit.
    @Test func aTripKeepsAPullsResolutionWhenTheCarSendsIt() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hub = try HubCollector(directory: directory, prefix: "fairfuel")
        let older = String(decoding: Self.trip(1, revision: 0, driver: "Alice", message: 1), as: UTF8.self)
        let newer = String(decoding: Self.trip(2, revision: 0, driver: "Alice", message: 2), as: UTF8.self)
            .replacingOccurrences(of: "}", with: ",\"duration_ms\":1507212,\"moving_ms\":1376004,\"idle_ms\":131208,\"max_speed_mps\":26.77}")
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/trip", payload: Array(older.utf8)) == .kept)
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/trip", payload: Array(newer.utf8)) == .kept)
        try hub.flush()
        let trips = state(directory, "trips.tsv").split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(trips.count == 2)
        // duration ms, moving ms, idle ms, max speed m/s: fields 7 to 10 of a pull's trip line.
        #expect(trips[0][7...10] == ["1507000", "1376000", "131000", "26.78"], "\(trips[0])")
        #expect(trips[1][7...10] == ["1507212", "1376004", "131208", "26.77"], "\(trips[1])")
    }

    @Test func aRemovedRefuelTakesItsSplit() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hub = try HubCollector(directory: directory, prefix: "fairfuel")
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/split", payload: Self.split(12, message: 1)) == .kept)
        try hub.flush()
        let shares = state(directory, "splits.tsv").split(separator: "\n")
        #expect(shares.count == 2)
        #expect(shares.first?.hasSuffix("\tAlice\t25.118\t4509\tEUR\t0") == true, "\(shares)")
        let removed = "{\"v\":1,\"message_id\":2,\"vehicle\":\"\(Self.vehicle)\",\"id\":12,\"revision\":1,\"deleted\":true}"
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/refuel", payload: Array(removed.utf8)) == .kept)
        try hub.flush()
        #expect(state(directory, "splits.tsv").isEmpty)
    }

    @Test func aCarsTimeZoneIsItsNewestMessages() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hub = try HubCollector(directory: directory, prefix: "fairfuel")
        let topic = "fairfuel/\(Self.vehicle)/trip"
        func zoned(_ id: Int, message: Int, zone: String) -> [UInt8] {
            var text = String(decoding: Self.trip(id, revision: 0, driver: "Alice", message: message), as: UTF8.self)
            text = text.replacingOccurrences(of: "\"vehicle_name\":\"Golf\",", with: "\"vehicle_name\":\"Golf\",\"vehicle_time_zone\":\"\(zone)\",")
            return Array(text.utf8)
        }
        #expect(try hub.receive(topic: topic, payload: Self.trip(1, revision: 0, driver: "Alice", message: 1)) == .kept)
        #expect(try hub.receive(topic: topic, payload: zoned(2, message: 2, zone: "Europe/Berlin")) == .kept)
        #expect(try hub.receive(topic: topic, payload: zoned(3, message: 3, zone: "Pacific/Honolulu")) == .kept)
        try hub.flush()
        #expect(state(directory, "vehicle.tsv") == "Golf\tEUR\t2\tmetric\t\t\(Self.vehicle)\tPacific/Honolulu\n")
    }

    /// A newer car's messages carry its store's unique id (`vehicle_uid`, what its USB pull carries): the
    /// vehicle line has it where a pull has it, then the time zone (empty: none set) and the topic's id.
    @Test func aCarsStoreIDIsKeptBesideItsTopicID() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hub = try HubCollector(directory: directory, prefix: "fairfuel")
        let topic = "fairfuel/\(Self.vehicle)/trip"
        let uid = "461c9861-7a2b-4c3d-8e4f-5a6b7c8d9e0f"
        func withUID(_ id: Int, message: Int, uid: String) -> [UInt8] {
            var text = String(decoding: Self.trip(id, revision: 0, driver: "Alice", message: message), as: UTF8.self)
            text = text.replacingOccurrences(of: "\"vehicle_name\":\"Golf\",", with: "\"vehicle_name\":\"Golf\",\"vehicle_uid\":\"\(uid)\",")
            return Array(text.utf8)
        }
        #expect(try hub.receive(topic: topic, payload: Self.trip(1, revision: 0, driver: "Alice", message: 1)) == .kept)
        #expect(try hub.receive(topic: topic, payload: withUID(2, message: 2, uid: uid)) == .kept)
        #expect(try hub.receive(topic: topic, payload: withUID(3, message: 3, uid: "../not an id")) == .kept)
        try hub.flush()
        #expect(state(directory, "vehicle.tsv") == "Golf\tEUR\t2\tmetric\t\t\(uid)\t\t\(Self.vehicle)\n")
    }
}
