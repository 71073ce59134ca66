@testable import FairFuelWeb
import Foundation
import Hummingbird
import Testing
import TestSupport

/// The web app against a real store on a real loopback port: what it shows is what the CLI prints,
/// what it changes the CLI then reads, and what it refuses changes nothing.
@Suite(.serialized) struct WebAppTests {
    @Test func withoutASessionEveryAPIRouteButLoginAndTheDocumentIs401() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            for (method, path) in [(HTTPRequest.Method.get, "/api/v1/home"), (.get, "/api/v1/trips"), (.get, "/api/v1/trips/1"),
                                   (.get, "/api/v1/refuels"), (.post, "/api/v1/refuels"), (.get, "/api/v1/bills"),
                                   (.post, "/api/v1/bills/1/settle"), (.get, "/api/v1/drivers"), (.post, "/api/v1/trips/u1/assign"),
                                   (.get, "/api/v1/session")]
            {
                let reply = try await web.send(method, path, json: "{}")
                #expect(reply.status == .unauthorized, "\(method) \(path)")
                #expect(reply.object["error"] as? String == "unauthorized")
            }
            #expect(try await web.send(.get, "/api/v1/openapi.json").status == .ok)
            let page = try await web.send(.get, "/")
            #expect(page.status == .seeOther && page.headers[.location] == "/login")
        }
    }

    @Test func theDocumentServedIsTheOneInDocs() async throws {
        let db = try WebRig.store()
        let served = try await WebRig.serve(db) { web in try await web.send(.get, "/api/v1/openapi.json").text }
        let kept = try String(contentsOfFile: PackagePaths.root + "/docs/openapi.json", encoding: .utf8)
        #expect(served + "\n" == kept, "run scripts/web/make-openapi.py")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(served.utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
    }

    @Test func loginSetsAStrictHttpOnlyCookieAndTenFailuresMakeTheNameWaitNotAnotherUser() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            let good = try await web.logIn("Mum", WebRig.familyPassword)
            #expect(good.status == .ok && good.object["role"] as? String == "family")
            let cookie = try #require(web.setCookieHeaders(good).first { $0.hasPrefix("fairfuel_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains("Secure"))
            #expect(try await web.send(.get, "/api/v1/session").object["user"] as? String == "mum")

            // Every client comes from 127.0.0.1 here, as every phone does behind the package's socket proxy.
            let other = WebClient(port: web.port)
            for attempt in 1...10 {
                #expect(try await other.logIn("mum", "wrong \(attempt)").status == .unauthorized)
            }
            // The right password for that name now waits too, from any client.
            let locked = try await other.logIn("mum", WebRig.familyPassword)
            #expect(locked.status == .tooManyRequests)
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            // Another user, from the same address, is not locked out.
            #expect(try await WebClient(port: web.port).logIn("cara", WebRig.driverPassword).status == .ok)
            #expect(try await other.logIn("nobody", "wrong name").status == .unauthorized)
        }
    }

    @Test func aRefuelThroughTheAPIIsInTheCLIsFuelLogAndBadInputChangesNothing() async throws {
        let db = try WebRig.store()
        let before = (try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]).count
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("cara", WebRig.driverPassword)
            let refused: [(String, HTTPResponse.Status)] = [
                ("{\"liters\":-5,\"cost\":\"10.00\"}", .badRequest),
                ("{\"liters\":40,\"cost\":\"-3\"}", .badRequest),
                ("{\"liters\":900,\"cost\":\"1620.00\"}", .unprocessableContent),  // more than the tank
                ("{\"liters\":40,\"cost\":\"70.00\",\"station\":\"a\\u0001b\"}", .unprocessableContent),
                ("not json", .badRequest),
            ]
            for (body, status) in refused {
                let reply = try await web.send(.post, "/api/v1/refuels", json: body)
                #expect(reply.status == status, "\(body): \(reply.text)")
                #expect(!(reply.object["message"] as? String ?? "").isEmpty)
            }
            // Without the session's token: a form from another site.
            #expect(try await web.send(.post, "/api/v1/refuels", json: "{\"liters\":40,\"cost\":\"70.00\"}", csrf: false).status == .forbidden)
            // A price ten times the usual one asks for a confirmation first.
            let odd = try await web.send(.post, "/api/v1/refuels", json: "{\"liters\":10,\"cost\":\"180.00\"}")
            #expect(odd.status == .conflict, "\(odd.text)")
            #expect((odd.object["message"] as? String ?? "").contains("far from this car's usual"))
            let unchanged = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
            #expect(unchanged.count == before)

            let saved = try await web.send(.post, "/api/v1/refuels", json: "{\"liters\":38.5,\"cost\":\"69.30\",\"full\":true,\"station\":\"Total\"}")
            #expect(saved.status == .created, "\(saved.text)")
            let id = try #require(saved.object["id"] as? Int)
            let log = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
            let entry = try #require(log.first { $0["id"] as? Int == id })
            #expect(entry["cost_cents"] as? Int == 6930 && entry["station"] as? String == "Total" && entry["full"] as? Bool == true)
            let bills = try WebRig.cliJSON(["split", "--json"], db: db) as! [[String: Any]]
            let bill = try #require(bills.first { $0["id"] as? Int == id })
            #expect((bill["shares"] as! [[String: Any]]).reduce(0) { $0 + ($1["cost_cents"] as! Int) } == 6930)
        }
    }

    @Test func aDriverCannotSettleOrDeleteAndNamesOnlyTheirOwnTrips() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("cara", WebRig.driverPassword)
            #expect(try await web.send(.post, "/api/v1/bills/1/settle").status == .forbidden)
            #expect(try await web.send(.post, "/api/v1/trips/1/delete", json: "{}").status == .forbidden)
            #expect(try await web.send(.post, "/api/v1/trips/u1/assign", json: "{\"driver\":\"Bob\"}").status == .forbidden)
            #expect(try await web.send(.post, "/api/v1/drivers/1/remove").status == .forbidden)
            let refuels = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
            #expect(refuels.allSatisfy { $0["settled_utc"] is NSNull })
            #expect((try WebRig.cliJSON(["trips", "--json"], db: db) as! [[String: Any]]).contains { $0["id"] as? Int == 1 })

            // Their own untracked driving: given to them, as `fairfuel trips` then shows.
            let mine = try await web.send(.post, "/api/v1/trips/u1/assign", json: "{\"driver\":\"Cara\"}")
            #expect(mine.status == .ok, "\(mine.text)")
            let session = try #require((mine.object["trips"] as? [[String: Any]])?.first?["session"] as? Int)
            let trips = try WebRig.cliJSON(["trips", "--json"], db: db) as! [[String: Any]]
            #expect(trips.contains { $0["id"] as? Int == session && $0["driver"] as? String == "Cara" })
            #expect(try await web.send(.get, "/api/v1/trips/u999").status == .notFound)
        }
    }

    @Test func theFamilySettlesThroughAFormWithItsTokenOnly() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            #expect(try await web.send(.post, "/bills/2/settle", form: "csrf=wrong", csrf: false).status == .forbidden)
            #expect(try await web.send(.post, "/bills/2/settle", form: "csrf=\(web.csrfToken)", csrf: false,
                                       headers: [.origin: "http://evil.example"]).status == .forbidden)
            #expect((try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]).allSatisfy { $0["settled_utc"] is NSNull })
            let settled = try await web.send(.post, "/bills/2/settle", form: "csrf=\(web.csrfToken)", csrf: false)
            #expect(settled.status == .seeOther)
            let log = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
            #expect(log.first { $0["id"] as? Int == 2 }?["settled_utc"] is String)
            // Every page renders for the family, escaped and without external assets.
            for path in ["/", "/trips", "/trips/1", "/trips/u1", "/refuels/new", "/bills", "/drivers", "/trips?driver=Alice&month=2026-11"] {
                let page = try await web.send(.get, path)
                #expect(page.status == .ok, "\(path): \(page.text.prefix(300))")
                #expect(page.text.contains("<meta name=\"viewport\"") && !page.text.contains("src=\"http") && !page.text.contains("href=\"http"))
            }
            #expect(try await web.send(.get, "/trips/42x").status == .notFound)
            let csv = try await web.send(.get, "/bills.csv")
            #expect(csv.text.hasPrefix("refuel,") && csv.text.contains("Alice"))
        }
    }

    /// The pages keep the book between requests: a refuel the CLI enters (another process) shows at the next one.
    @Test func whatAnotherProcessCommitsShowsAtTheNextRequest() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            func billed() async throws -> Int {
                let totals = try await web.send(.get, "/api/v1/home").object["totals"] as? [[String: Any]] ?? []
                return totals.reduce(0) { $0 + ($1["cost_cents"] as? Int ?? 0) }
            }
            let before = try await billed()
            #expect(try await billed() == before)
            let added = try WebRig.cli(["refuel", "--at", "2026-11-22T09:00:00Z", "--liters", "3", "--cost", "5.43", "--db", db])
            #expect(added.exitCode == 0, "\(added.standardError)")
            #expect(try await billed() == before + 543)
        }
    }

    /// The refuel form as a phone sends it: multipart, with a receipt photo whose EXIF is gone once stored.
    @Test func aRefuelWithItsReceiptThroughTheForm() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            func form(_ receipt: [UInt8], station: String) -> [UInt8] {
                var body: [UInt8] = []
                for (name, value) in [("csrf", web.csrfToken), ("liters", "20"), ("cost", "36.20"), ("full", "1"), ("station", station)] {
                    body += Array("--b\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
                }
                body += Array("--b\r\nContent-Disposition: form-data; name=\"receipt\"; filename=\"r.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
                return body + receipt + Array("\r\n--b--\r\n".utf8)
            }
            let refused = try await web.send(
                .post, "/refuels", contentType: "multipart/form-data; boundary=b", body: form(Array("GIF89a".utf8), station: "Gif"), csrf: false)
            #expect(refused.status == .unprocessableContent && refused.text.contains("JPEG or PNG"))
            #expect(!(try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]).contains { $0["station"] as? String == "Gif" })

            let saved = try await web.send(
                .post, "/refuels", contentType: "multipart/form-data; boundary=b", body: form(WebPartsTests.jpeg, station: "Photo"), csrf: false)
            #expect(saved.status == .ok && saved.text.contains("receipt kept"), "\(saved.text.prefix(400))")
            let log = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
            let id = try #require(log.first { $0["station"] as? String == "Photo" }?["id"] as? Int)
            #expect(try await web.send(.get, "/bills").text.contains("/refuels/\(id)/receipt"))
            let photo = try await web.send(.get, "/refuels/\(id)/receipt")
            #expect(photo.status == .ok && photo.headers[.contentType] == "image/jpeg")
            #expect(photo.bytes == (try ReceiptImage(WebPartsTests.jpeg)).bytes)
            #expect(WebForm.find(Array("Exif".utf8), in: photo.bytes, from: 0) == nil)
            #expect(try await web.send(.get, "/refuels/1/receipt").status == .notFound)
        }
    }

    @Test func anOversizedUploadIs413AndChangesNothing() async throws {
        let db = try WebRig.store()
        let before = (try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]).count
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let big = [UInt8](repeating: 0x41, count: 600 << 10)
            let reply = try await web.send(.post, "/refuels", contentType: "multipart/form-data; boundary=x", body: big, csrf: false)
            #expect(reply.status == .contentTooLarge)
        }
        #expect((try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]).count == before)
    }
}
