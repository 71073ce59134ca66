import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Hummingbird
import Testing
import TestSupport

/// The book's other actions on their pages and in the API: a recorded trip moved and one deleted,
/// a bill settled and unsettled, the monthly report downloaded, drivers renamed and removed. Each is
/// checked against the same action done by the CLI on a second store made the same way.
@Suite(.serialized) struct WebBookActionsTests {
    static func json(_ arguments: [String], _ db: String) throws -> String {
        let result = try WebRig.cli(arguments + ["--json", "--db", db])
        #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        return result.standardOutput
    }

    /// The page's text as a reader sees it (the CLI's `->` is escaped in HTML).
    static func shown(_ html: String) -> String {
        html.replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func bill(_ id: Int, _ db: String) throws -> [String: Any]? {
        (try JSONSerialization.jsonObject(with: Data(try json(["split"], db).utf8)) as! [[String: Any]]).first { $0["id"] as? Int == id }
    }

    static func drivers(_ db: String) throws -> String { try WebRig.cli(["provision", "driver", "list", "--db", db]).standardOutput }

    @Test func aTripMovedAndOneDeletedOnTheWebLeaveTheBooksAsTheCLIWould() async throws {
        let (web, cli) = (try WebRig.store(), try WebRig.store())
        let before = try Self.json(["split"], web)
        #expect(before == (try Self.json(["split"], cli)), "two stores made the same way start equal")
        let cliMove = try WebRig.cli(["trips", "assign", "1", "Bob", "--db", cli])
        #expect(cliMove.exitCode == 0, "\(cliMove.standardError)")
        try await WebRig.serve(web) { client in
            // A driver-role user may not move a recorded trip, nor delete one: nothing changes.
            _ = try await client.logIn("cara", WebRig.driverPassword)
            #expect(try await client.send(.post, "/api/v1/trips/1/assign", json: "{\"driver\":\"Cara\"}").status == .forbidden)
            #expect(try await client.send(.post, "/api/v1/trips/1/delete", json: "{}").status == .forbidden)
            #expect(try Self.json(["split"], web) == before)

            let mum = WebClient(port: client.port)
            _ = try await mum.logIn("mum", WebRig.familyPassword)
            let moved = try await mum.send(.post, "/trips/1/assign", form: "csrf=\(mum.csrfToken)&driver=bob", csrf: false)
            #expect(moved.status == .ok, "\(moved.text.prefix(400))")
            // The page shows every moved bill before and after, line for line as the CLI printed them.
            let page = Self.shown(moved.text)
            for line in cliMove.standardOutput.split(separator: "\n").dropFirst() {
                #expect(page.contains(line), "the page lacks the CLI's line «\(line)»")
            }
            // A trip still being driven cannot be deleted, here as in the CLI: a clear answer, nothing changed.
            let moving = try await mum.send(.post, "/api/v1/trips/2/delete", json: "{}")
            #expect(moving.status.code >= 400 && moving.status.code < 500 && (moving.object["message"] as? String ?? "").contains("still being driven"),
                    "\(moving.text)")
            let deleted = try await mum.send(.post, "/api/v1/trips/1/delete", json: "{}")
            #expect(deleted.status == .ok && deleted.object["driver"] as? String == "Bob", "\(deleted.text)")
            #expect(try await mum.send(.post, "/api/v1/trips/999/delete", json: "{}").status == .notFound)
        }
        #expect(try WebRig.cli(["trips", "delete", "1", "--db", cli]).exitCode == 0)
        let after = try Self.json(["split"], web)
        #expect(after != before)
        #expect(after == (try Self.json(["split"], cli)))
        #expect(try Self.json(["trips"], web) == (try Self.json(["trips"], cli)))
    }

    @Test func aBillSettledAndUnsettledOnItsPageAndTheMonthsReportAreTheCLIs() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { client in
            _ = try await client.logIn("cara", WebRig.driverPassword)
            #expect(try await client.send(.post, "/api/v1/bills/2/settle").status == .forbidden)
            #expect(try Self.bill(2, db)?["settled_utc"] is NSNull)

            let mum = WebClient(port: client.port)
            _ = try await mum.logIn("mum", WebRig.familyPassword)
            let settled = try await mum.send(.post, "/bills/2/settle", form: "csrf=\(mum.csrfToken)", csrf: false)
            #expect(settled.status.code == 303 || settled.status == .ok, "\(settled.status)")
            let settledAt = try #require(try Self.bill(2, db)?["settled_utc"] as? String)
            // A settled bill stays as it was: moving its trip asks first, and nothing moves.
            let shares = try #require(try Self.bill(2, db)?["shares"] as? [[String: Any]])
            let asked = try await mum.send(.post, "/api/v1/trips/1/assign", json: "{\"driver\":\"Bob\"}")
            #expect(asked.status == .conflict, "\(asked.text)")
            let still = try #require(try Self.bill(2, db))
            #expect((still["shares"] as? [[String: Any]])?.count == shares.count && still["settled_utc"] as? String == settledAt)

            let unsettled = try await mum.send(.post, "/bills/2/unsettle", form: "csrf=\(mum.csrfToken)", csrf: false)
            #expect(unsettled.status == .ok && unsettled.text.contains("bill 2 unsettled"), "\(unsettled.text.prefix(400))")
            #expect(try Self.bill(2, db)?["settled_utc"] is NSNull)
            #expect(try await mum.send(.post, "/api/v1/bills/99/unsettle").status == .notFound)

            // The month's report is the CLI's file, byte for byte.
            let report = try await mum.send(.get, "/report.html?month=2026-11")
            #expect(report.status == .ok && (report.headers[.contentDisposition] ?? "").contains("attachment"))
            let file = NSTemporaryDirectory() + "fairfuel-report-\(UUID().uuidString).html"
            defer { try? FileManager.default.removeItem(atPath: file) }
            #expect(try WebRig.cli(["report", "--html", file, "--month", "2026-11", "--db", db]).exitCode == 0)
            #expect(report.text == (try String(contentsOfFile: file, encoding: .utf8)))
            #expect(report.text.contains("Alice"))
            #expect(try await mum.send(.get, "/report.html?month=2026-13").status == .badRequest)
        }
    }

    @Test func aDriverRenamedAndOneRemovedOnThePageAreTheCLIs() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { client in
            _ = try await client.logIn("cara", WebRig.driverPassword)
            #expect(try await client.send(.post, "/api/v1/drivers/1/rename", json: "{\"name\":\"Cara\"}").status == .forbidden)
            #expect(try await client.send(.post, "/api/v1/drivers/2/remove").status == .forbidden)

            let mum = WebClient(port: client.port)
            _ = try await mum.logIn("mum", WebRig.familyPassword)
            let list = try Self.drivers(db)
            // A name another driver has, or none at all: refused by the store's own rule, nothing changed.
            #expect(try await mum.send(.post, "/api/v1/drivers/1/rename", json: "{\"name\":\"bob\"}").status.code >= 400)
            #expect(try await mum.send(.post, "/api/v1/drivers/1/rename", json: "{\"name\":\"  \"}").status.code >= 400)
            #expect(try Self.drivers(db) == list)

            let renamed = try await mum.send(.post, "/drivers/1/rename", form: "csrf=\(mum.csrfToken)&name=Alicia", csrf: false)
            #expect(renamed.status.code == 303 || renamed.status == .ok, "\(renamed.status)")
            let afterRename = try Self.drivers(db)
            #expect(afterRename.contains("\tAlicia") && !afterRename.contains("\tAlice\t") && !afterRename.contains("\tAlice\n"), "\(afterRename)")
            // Past trips carry the new name.
            let trips = try JSONSerialization.jsonObject(with: Data(try Self.json(["trips"], db).utf8)) as! [[String: Any]]
            #expect(trips.contains { $0["driver"] as? String == "Alicia" } && !trips.contains { $0["driver"] as? String == "Alice" })

            let removed = try await mum.send(.post, "/drivers/2/remove", form: "csrf=\(mum.csrfToken)", csrf: false)
            #expect(removed.status.code == 303 || removed.status == .ok, "\(removed.status)")
            let afterRemove = try Self.drivers(db)
            #expect(!afterRemove.contains("\tBob"), "\(afterRemove)")
            // Bob's fob is free again: the CLI gives it to someone else.
            #expect(try WebRig.cli(["provision", "driver", "add", "Dan", "--tag", "04a22b7a", "--db", db]).exitCode == 0)
            #expect(try await mum.send(.post, "/api/v1/drivers/99/remove").status == .notFound)
        }
    }
}
