import FairFuelPull
import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Hummingbird
import Testing
import TestSupport

/// `fairfuel web --hub-db FILE`: the family view of every car a hub's database holds, whose
/// figures are what `fairfuel family` and `fairfuel summary` print over the same file; read-only.
@Suite(.serialized) struct HubFamilyWebTests {
    static let golf = "0123456789abcdef0123456789abcdef"
    static let zoe = "fedcba9876543210fedcba9876543210"

    /// A trip message as a car's uplink sends it (`<prefix>/<vehicle>/trip`).
    static func trip(_ vehicle: String, name: String, id: Int, driver: String, start: String, km: Double, liters: Double) -> String {
        """
        {"v":1,"message_id":\(id),"vehicle":"\(vehicle)","vehicle_name":"\(name)","id":\(id),"revision":0,\
        "driver":"\(driver)","driver_uuid":null,"start_utc":"\(start)","end_utc":"\(start.replacingOccurrences(of: ":41:", with: ":59:"))",\
        "end_reason":"departed","distance_km":\(km),"duration_s":1080,"idle_s":60,"harsh_accel":0,"harsh_brake":0,\
        "max_speed_kmh":90.0,"fuel_l":\(liters),"moving_s":1020,"stopped_utc":null,"driver_left_utc":null,"distance_m":\(km * 1000),"fuel_ml":\(liters * 1000)}
        """
    }

    /// A bill message (`<prefix>/<vehicle>/split`) with its shares.
    static func split(_ vehicle: String, name: String, id: Int, at: String, shares: [(String, Double, Int)]) -> String {
        let liters = shares.map(\.1).reduce(0, +), cents = shares.map(\.2).reduce(0, +)
        let parts = shares.map { "{\"driver\":\"\($0.0)\",\"driver_uuid\":null,\"fuel_l\":\($0.1),\"cost_cents\":\($0.2)}" }.joined(separator: ",")
        return """
            {"v":1,"message_id":\(100 + id),"vehicle":"\(vehicle)","vehicle_name":"\(name)","id":\(id),"revision":0,\
            "at_utc":"\(at)","liters":\(liters),"cost_cents":\(cents),"full":true,"currency":"EUR","shares":[\(parts)]}
            """
    }

    /// Two cars, Alice driving both (one person), October and November trips and bills.
    static func hubDatabase(_ directory: String) throws -> String {
        let path = directory + "/hub.db"
        try hubRecords(into: try HubRecordStore(path: path))
        return path
    }

    /// The records of `hubDatabase`, offered to any hub store (a SQLite file, a PostgreSQL server).
    static func hubRecords(into hub: any HubRecordStoring) throws {
        let records: [(String, String, Int, String)] = [
            (golf, "trip", 1, trip(golf, name: "Golf", id: 1, driver: "Alice", start: "2026-10-12T07:41:03.000Z", km: 30.2, liters: 2.1)),
            (golf, "trip", 2, trip(golf, name: "Golf", id: 2, driver: "Bob", start: "2026-11-24T07:41:03.000Z", km: 21.4, liters: 1.5)),
            (golf, "trip", 3, trip(golf, name: "Golf", id: 3, driver: "Alice", start: "2026-11-25T07:41:03.000Z", km: 12.6, liters: 0.9)),
            (golf, "split", 7, split(golf, name: "Golf", id: 7, at: "2026-11-25T17:20:00.000Z", shares: [("Alice", 25.1, 4509), ("Bob", 16.1, 2887)])),
            (zoe, "trip", 1, trip(zoe, name: "Zoe", id: 1, driver: "alice", start: "2026-11-26T07:41:03.000Z", km: 44.8, liters: 3.2)),
            (zoe, "trip", 2, trip(zoe, name: "Zoe", id: 2, driver: "Cara", start: "2026-11-27T07:41:03.000Z", km: 8.2, liters: 0.6)),
            (zoe, "split", 3, split(zoe, name: "Zoe", id: 3, at: "2026-10-30T17:20:00.000Z", shares: [("alice", 20.0, 3600), ("Cara", 5.0, 900)])),
        ]
        for (vehicle, kind, id, payload) in records {
            let offer = try hub.offer(vehicle: vehicle, kind: kind, id: Int64(id), revision: 0, deleted: false, messageID: Int64(id), payload: payload, storedUTCMs: 1_795_000_000_000)
            #expect(offer == .kept)
        }
    }

    /// The hub's database and a users file made by `fairfuel web user add` (a family and a driver user).
    static func rig() throws -> (hub: String, users: String) {
        let directory = NSTemporaryDirectory() + "fairfuel-hubweb-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let users = directory + "/users.db"
        // Without --create a missing file is an error and stays missing (a mistyped --db on a car).
        let refused = try WebRig.cli(["web", "user", "add", "mum", "--role", "family", "--db", users], input: WebRig.familyPassword + "\n")
        #expect(refused.exitCode != 0)
        #expect(!FileManager.default.fileExists(atPath: users), "a user add without --create made \(users)")
        for (name, role, password) in [("mum", "family", WebRig.familyPassword), ("cara", "driver", WebRig.driverPassword)] {
            let result = try WebRig.cli(["web", "user", "add", name, "--role", role, "--create", "--db", users], input: password + "\n")
            #expect(result.exitCode == 0, "\(result.standardError)")
        }
        return (try hubDatabase(directory), users)
    }

    /// What the CLI prints (JSON), kept as text: it crosses into the server's task.
    static func cliOutput(_ arguments: [String]) throws -> String {
        let result = try WebRig.cli(arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        return result.standardOutput
    }

    static func parsed(_ text: String) -> NSObject? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSObject }

    @Test func theFamilyViewsFiguresAreTheCLIsForTheSameDatabase() async throws {
        let (hub, users) = try Self.rig()
        let peopleText = try Self.cliOutput(["family", "--json", hub])
        let novemberText = try Self.cliOutput(["summary", "--month", "2026-11", "--json", hub])
        let allTimeText = try Self.cliOutput(["summary", "--json", hub])
        let alice = (Self.parsed(peopleText) as? [[String: Any]])?.filter { ($0["driver"] as? String)?.lowercased() == "alice" }
        #expect(alice?.count == 1 && (alice?.first?["cars"] as? [String])?.count == 2, "one person across both cars: \(peopleText)")
        try await WebRig.serve(users, hub: try HubFamily(path: hub)) { web in
            #expect(try await web.send(.get, "/family").headers[.location] == "/login")
            #expect(try await web.send(.get, "/api/v1/family").status == .unauthorized)
            #expect(try await web.logIn("mum", WebRig.familyPassword).status == .ok)
            let home = try await web.send(.get, "/")
            #expect(home.status == .seeOther && home.headers[.location] == "/family")
            let (people, november, allTime) = (Self.parsed(peopleText), Self.parsed(novemberText), Self.parsed(allTimeText))
            #expect(people != nil && november != nil && allTime != nil)
            let api = try await web.send(.get, "/api/v1/family?month=2026-11").object
            #expect((api["people"] as? NSObject) == people)
            #expect((api["month"] as? NSObject) == november)
            #expect((api["all_time"] as? NSObject) == allTime)
            #expect(api["read_only"] as? Bool == true)
            let cars = api["cars"] as? [[String: Any]] ?? []
            #expect(cars.map { $0["car"] as? String } == ["Golf", "Zoe"])
            #expect((cars.first?["latest_trips"] as? [[String: Any]])?.map { $0["id"] as? Int } == [3, 2, 1], "newest first")

            // The page ("this month" is the rig's clock's: November 2026) shows each person's row from the CLI's figures.
            let page = try await web.send(.get, "/family")
            #expect(page.status == .ok)
            #expect(page.text.contains("read-only") && page.text.contains("made on the car"))
            #expect(!page.text.contains("href=\"/refuels/new\""), "no car pages on the hub")
            func fixed(_ value: Any?, _ decimals: Int) -> String { String(format: "%.\(decimals)f", (value as? Double) ?? Double((value as? Int) ?? 0)) }
            let month = Dictionary(((november as? [String: Any])?["drivers"] as? [[String: Any]] ?? []).map { ($0["driver"] as? String ?? "", $0) }) { a, _ in a }
            let total = (allTime as? [String: Any])?["drivers"] as? [[String: Any]] ?? []
            #expect(total.count == 3)
            for person in total {
                let name = person["driver"] as? String ?? ""
                let m = month[name] ?? [:]
                let cells = [fixed(m["distance_km"], 1), fixed(m["fuel_l"], 2), fixed(Double(m["cost_cents"] as? Int ?? 0) / 100, 2),
                             fixed(person["distance_km"], 1), fixed(person["fuel_l"], 2), fixed(Double(person["cost_cents"] as? Int ?? 0) / 100, 2)]
                let row = "<td>\(name)</td>" + cells.map { "<td class=\"n\">\($0)</td>" }.joined()
                #expect(page.text.contains(row), "\(row)")
            }
            #expect(try await web.send(.get, "/trips").status == .notFound, "the car's pages are not served from the hub")
        }
        // A driver-role user sees the same page.
        try await WebRig.serve(users, hub: try HubFamily(path: hub)) { web in
            #expect(try await web.logIn("cara", WebRig.driverPassword).status == .ok)
            let page = try await web.send(.get, "/family")
            #expect(page.status == .ok && page.text.contains("Zoe"))
            #expect(try await web.send(.get, "/api/v1/family").status == .ok)
            #expect(try await web.send(.get, "/api/v1/family?month=2026-13").status == .badRequest)
        }
        // A car's app has no family view of every car: its API says where it is, as the document declares.
        try await WebRig.serve(users) { web in
            #expect(try await web.logIn("mum", WebRig.familyPassword).status == .ok)
            let reply = try await web.send(.get, "/api/v1/family")
            #expect(reply.status == .notFound && reply.object["error"] as? String == "not_found", "\(reply.text)")
            #expect(try await web.send(.get, "/family").status == .notFound)
        }
    }

    @Test func aMissingFileOrOneThatIsNotAHubsIsAClearErrorAtStartAndChangesNothing() throws {
        let (hub, users) = try Self.rig()
        let missing = hub + ".missing"
        #expect(throws: WebError.unavailable("no hub database at \(missing): `fairfuel hub --db \(missing)` writes one")) { _ = try HubFamily(path: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let before = try Data(contentsOf: URL(fileURLWithPath: users))
        do {
            _ = try HubFamily(path: users)
            Issue.record("a car's store was taken as a hub's")
        } catch {
            #expect("\(error)".contains("is a SQLite database but not a hub's"))
        }
        // The command says so and stops, before it listens; `family` over the car's store refuses it too, without migrating it.
        let served = try WebRig.cli(["web", "--hub-db", users, "--db", users, "--listen", "127.0.0.1:0"])
        #expect(served.exitCode != 0 && served.standardError.contains("not a hub's"), "\(served.standardError)")
        let family = try WebRig.cli(["family", users])
        #expect(family.exitCode != 0 && family.standardError.contains("not a hub's"), "\(family.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: users)) == before)
        let missingServed = try WebRig.cli(["web", "--hub-db", missing, "--db", users, "--listen", "127.0.0.1:0"])
        #expect(missingServed.exitCode != 0 && missingServed.standardError.contains("no hub database at"), "\(missingServed.standardError)")
    }

    /// While the hub waits for a car's answer to a `resend`, the family page and `/api/v1/family` say
    /// that car's records may be incomplete; the hub's directory stands for its database (`--hub-db DIR`).
    @Test func aCarTheHubWaitsForIsSaidToBeIncomplete() async throws {
        let (hub, users) = try Self.rig()
        let directory = (hub as NSString).deletingLastPathComponent
        // The rig's database is where `fairfuel hub --dir DIR` keeps one: DIR is a hub's directory once it has the marker.
        #expect(HubDirectoryDatabase.resolve(directory) == directory)
        try "fairfuel-hub-0123456789abcdef\n".write(toFile: directory + "/.fairfuel-hub", atomically: true, encoding: .utf8)
        #expect(HubDirectoryDatabase.resolve(directory) == hub)
        // `fairfuel web --hub-db DIR` serves it (it stops after a second without a request).
        let served = try WebRig.cli(["web", "--hub-db", directory, "--db", users, "--listen", "127.0.0.1:0", "--idle-exit-s", "1"])
        #expect(served.exitCode == 0 && served.standardOutput.contains("serving \(directory)"), "\(served.standardError)")
        try HubRecordStore(path: hub).commandSent(vehicle: Self.zoe, id: "ask-zoe", name: "resend", sentUTCMs: 1_795_000_000_000)
        try await WebRig.serve(users, hub: try HubFamily(path: HubDirectoryDatabase.resolve(directory))) { web in
            #expect(try await web.logIn("mum", WebRig.familyPassword).status == .ok)
            let api = try await web.send(.get, "/api/v1/family?month=2026-11").object
            let incomplete = api["incomplete"] as? [[String: Any]] ?? []
            #expect(incomplete.map { $0["car"] as? String } == ["Zoe"] && incomplete.first?["vehicle_id"] as? String == Self.zoe, "\(incomplete)")
            #expect(incomplete.first?["asked_utc"] as? String == "2026-11-18T11:06:40.000Z")
            let page = try await web.send(.get, "/family")
            #expect(page.text.contains("Zoe: its records may be incomplete: the hub waits for what it missed (asked at 2026-11-18T11:06:40.000Z)"),
                    "\(page.text)")
        }
        // The car answers: nothing more is said.
        #expect(try HubRecordStore(path: hub).commandAnswered(vehicle: Self.zoe, id: "ask-zoe", outcome: "applied", reason: nil, answeredUTCMs: 1_795_000_001_000))
        try await WebRig.serve(users, hub: try HubFamily(path: hub)) { web in
            let login = try await web.logIn("mum", WebRig.familyPassword)
            let api = try await web.send(.get, "/api/v1/family").object
            let page = try await web.send(.get, "/family")
            #expect(login.status == .ok)
            #expect((api["incomplete"] as? [Any])?.isEmpty == true, "\(api)")
            #expect(page.status == .ok && !page.text.contains("may be incomplete"))
        }
    }
}
