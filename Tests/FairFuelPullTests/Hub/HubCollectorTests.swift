import FairFuelPull
import FairFuelReports
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

    // MARK: Hostile messages: anything anyone publishes under the prefix reaches the hub.

    /// Takes `payloads` on `kind`, flushes, and renders every family view of the hub's directory:
    /// none of it may trap, whatever the message held.
    func takeAndRenderEverything(_ payloads: [[UInt8]], kind: String = "trip") throws -> [HubCollector.Outcome] {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hub = try HubCollector(directory: directory, prefix: "fairfuel")
        let outcomes = try payloads.map { try hub.receive(topic: "fairfuel/\(Self.vehicle)/\(kind)", payload: $0) }
        try hub.flush()
        let books = try FamilyBooks.load(directories: try FamilyBooks.carDirectories([directory]))
        _ = FamilyView(books).json + FamilyView(books).table
        for grouping in SplitText.Grouping.allCases { _ = books.splitText(by: grouping, json: false) + books.splitText(by: grouping, json: true) }
        _ = books.summaryText(nil, json: false) + books.summaryText(nil, json: true)
        _ = books.reportHTML(nil).page
        return outcomes
    }

    static func replacing(_ payload: [UInt8], _ old: String, _ new: String) -> [UInt8] {
        Array(String(decoding: payload, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
    }

    /// `duration_s` times 1000 overflowed Int64 when the hub wrote the car's trips (a trap in `flush`).
    @Test func aDurationInSecondsTooLargeForMillisecondsIsIgnored() throws {
        let huge = Self.replacing(Self.trip(1, revision: 0, driver: "Alice", message: 1), "\"duration_s\":1507", "\"duration_s\":9223372036854776")
        let outcomes = try takeAndRenderEverything([huge, Self.trip(2, revision: 0, driver: "Alice", message: 2)])
        #expect(outcomes == [.refused("duration_s out of range: 9223372036854776"), .kept])
    }
    /// Arrays nested half a million deep (just under the hub's size cap, `HubMessageCheck.maximumPayloadBytes`):
    /// the reader recursed once per level and ran off the stack.
    @Test func aMessageNestedTooDeeplyIsIgnored() throws {
        let depth = 500_000
        let nested = "{\"v\":1,\"id\":1,\"revision\":0,\"x\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let outcomes = try takeAndRenderEverything([Array(nested.utf8)])
        #expect(outcomes == [.ignored("not a version 1 record message")])
    }

    /// Two bills of 2^62 cents each: their shares' sum overflowed Int64 in the family's views.
    @Test func billsTooLargeToAddUpAreIgnored() throws {
        let huge = Self.replacing(Self.split(12, message: 1), "\"cost_cents\":4509", "\"cost_cents\":4611686018427387904")
        let other = Self.replacing(Self.replacing(huge, "\"id\":12", "\"id\":13"), "\"message_id\":1", "\"message_id\":2")
        let outcomes = try takeAndRenderEverything([huge, other, Self.split(14, message: 3)], kind: "split")
        #expect(outcomes == [.refused("cost_cents out of range: 4611686018427387904"), .refused("cost_cents out of range: 4611686018427387904"), .kept])
    }

    /// Bills of minus a trillion cents, a hundred shares each: no real message has a negative number,
    /// and 210 of them added up past what the family report's cost chart could scale (a trap
    /// converting the bar length to Int).
    @Test func negativeNumbersAreIgnored() throws {
        let shares = Array(repeating: "{\"driver\":\"Alice\",\"driver_uuid\":null,\"fuel_l\":1.0,\"cost_cents\":-999999999999}", count: 100)
        let bills = (1...210).map { id in
            Array("""
                {"v":1,"message_id":\(id),"vehicle":"\(Self.vehicle)","id":\(id),"revision":0,"at_utc":"2026-11-25T17:20:00.000Z",\
                "liters":41.2,"cost_cents":7396,"full":true,"currency":"EUR","shares":[\(shares.joined(separator: ","))]}
                """.utf8)
        }
        let outcomes = try takeAndRenderEverything(bills, kind: "split")
        #expect(outcomes.allSatisfy { $0 == .refused("cost_cents out of range: -999999999999") }, "\(outcomes.first!)")
    }

    /// A car in Santiago with positions on: its coordinates are negative and its track's times
    /// past 1e12 ms, and its trips are kept all the same; an absurd coordinate is not.
    @Test func positionsWestAndSouthOfGreenwichAreKept() throws {
        let track = "\"start\":[-33.447487,-70.673676],\"end\":[-33.4569,-70.6483],"
            + "\"track\":[[1795000000000,-33.447487,-70.673676],[1795000060000,-33.4569,-70.6483]],"
        let summary = Self.replacing(Self.trip(1, revision: 0, driver: "Alice", message: 1), "\"end_reason\"", track + "\"end_reason\"")
        let absurd = Self.replacing(Self.trip(2, revision: 0, driver: "Alice", message: 2), "\"end_reason\"", "\"start\":[-1e300,0],\"end_reason\"")
        let negativeFuel = Self.replacing(Self.trip(3, revision: 0, driver: "Alice", message: 3), "\"fuel_l\":1.482", "\"fuel_l\":-1.482")
        #expect(try takeAndRenderEverything([summary, absurd, negativeFuel])
            == [.kept, .refused("start out of range: -1e300"), .refused("fuel_l out of range: -1.482")])
    }

    /// `nan`, `inf` and hex are not JSON numbers; they were read as doubles and written to the car's files.
    @Test func numbersJSONDoesNotHaveAreIgnored() throws {
        let trip = Self.trip(1, revision: 0, driver: "Alice", message: 1)
        let outcomes = try takeAndRenderEverything([
            Self.replacing(trip, "\"distance_m\":21406.3", "\"distance_m\":nan"),
            Self.replacing(trip, "\"fuel_ml\":1482.3", "\"fuel_ml\":-infinity"),
            Self.replacing(trip, "\"max_speed_kmh\":96.4", "\"max_speed_kmh\":0x1p9"),
        ])
        #expect(outcomes.allSatisfy { $0 == .ignored("not a version 1 record message") }, "\(outcomes)")
    }
    /// A hub from before the check kept such a record in `hub-records.tsv`: every flush of that car
    /// re-read it and trapped again, so a restart did not help. It is now left out of the car's files.
    @Test func aRecordKeptBeforeTheCheckIsLeftOut() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-hub-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stateDirectory = "\(directory)/\(Self.vehicle)/.fairfuel-pull"
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        let huge = String(decoding: Self.replacing(Self.trip(1, revision: 0, driver: "Alice", message: 1), "\"duration_s\":1507", "\"duration_s\":9223372036854776"), as: UTF8.self)
        try "trip\t1\t0\t0\t\(huge)\n".write(toFile: stateDirectory + "/hub-records.tsv", atomically: true, encoding: .utf8)
        let hub = try HubCollector(directory: directory, prefix: "fairfuel")
        #expect(try hub.receive(topic: "fairfuel/\(Self.vehicle)/trip", payload: Self.trip(2, revision: 0, driver: "Bob", message: 2)) == .kept)
        try hub.flush()
        let trips = state(directory, "trips.tsv").split(separator: "\n")
        #expect(trips.count == 1 && trips[0].hasPrefix("2\t"), "\(trips)")
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
        // An id that is not a plain id is refused with its record: it would name nothing a pull names.
        #expect(try hub.receive(topic: topic, payload: withUID(3, message: 3, uid: "../not an id")) == .refused("vehicle_uid must be a plain id"))
        try hub.flush()
        #expect(state(directory, "vehicle.tsv") == "Golf\tEUR\t2\tmetric\t\t\(uid)\t\t\(Self.vehicle)\n")
    }
}
