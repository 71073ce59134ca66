import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Hummingbird
import Testing
import TestSupport

/// Correcting and removing a refuel, adding a driver and the car's state on the home page, through
/// the app on a real store; results read back with the CLI.
@Suite(.serialized) struct WebCorrectionsTests {
    static func refuel(_ id: Int, db: String) throws -> [String: Any]? {
        (try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]).first { $0["id"] as? Int == id }
    }

    @Test func aRefuelCorrectedOnItsPageIsTheCLIsAndAnOddPriceAsksFirst() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let page = try await web.send(.get, "/refuels/2/edit")
            #expect(page.status == .ok && page.text.contains("name=\"liters\"") && page.text.contains("value=\"1.50\""), "\(page.text.prefix(400))")
            let csrf = "csrf=\(web.csrfToken)"
            // Ten times the usual price: a confirmation first, and nothing changed.
            let odd = try await web.send(.post, "/refuels/2/edit", form: "\(csrf)&liters=1.50&cost=27.10&odometer_km=12001.0", csrf: false)
            #expect(odd.status == .conflict && odd.text.contains("Confirm"), "\(odd.text.prefix(400))")
            #expect(try Self.refuel(2, db: db)?["cost_cents"] as? Int == 271)
            let bad = try await web.send(.post, "/refuels/2/edit", form: "\(csrf)&liters=-1&cost=2.71", csrf: false)
            #expect(bad.status == .badRequest && bad.text.contains("more than 0"))
            // The usual price for 2 litres; the odometer emptied: forgotten, as `refuel edit --no-odometer`.
            let fixed = try await web.send(.post, "/refuels/2/edit", form: "\(csrf)&liters=2.00&cost=3.62&odometer_km=", csrf: false)
            #expect(fixed.status == .ok && fixed.text.contains("refuel 2 corrected"), "\(fixed.text.prefix(400))")
            let entry = try #require(try Self.refuel(2, db: db))
            #expect(entry["cost_cents"] as? Int == 362 && entry["liters"] as? Double == 2 && entry["odometer_km"] is NSNull)
            // Its bill is split again over the new cost.
            let bills = try WebRig.cliJSON(["split", "--json"], db: db) as! [[String: Any]]
            let bill = try #require(bills.first { $0["id"] as? Int == 2 })
            #expect((bill["shares"] as! [[String: Any]]).reduce(0) { $0 + ($1["cost_cents"] as! Int) } == 362)
        }
    }

    @Test func aRefuelRemovedThroughTheAPIIsGoneAndADriverMayNeither() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("cara", WebRig.driverPassword)
            #expect(try await web.send(.post, "/api/v1/refuels/3/remove", json: "{}").status == .forbidden)
            #expect(try await web.send(.post, "/api/v1/refuels/3/edit", json: "{\"cost\":\"1.00\"}").status == .forbidden)
            #expect(try Self.refuel(3, db: db) != nil)

            let mum = WebClient(port: web.port)
            _ = try await mum.logIn("mum", WebRig.familyPassword)
            #expect(try await mum.send(.post, "/api/v1/refuels/99/remove", json: "{}").status == .notFound)
            #expect(try await mum.send(.post, "/api/v1/refuels/3/edit", json: "{\"liters\":-2}").status == .badRequest)
            // A volume so small that its price per litre is more than any money: asked about, not a crash.
            let tiny = try await mum.send(.post, "/api/v1/refuels", json: "{\"liters\":1e-250,\"cost\":\"2,5\"}")
            #expect(tiny.status == .conflict && (tiny.object["message"] as? String ?? "").contains("absurd price"), "\(tiny.text)")
            let edited = try await mum.send(.post, "/api/v1/refuels/3/edit", json: "{\"liters\":2.5,\"cost\":\"4.53\"}")
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try Self.refuel(3, db: db)?["cost_cents"] as? Int == 453)
            let removed = try await mum.send(.post, "/api/v1/refuels/3/remove", json: "{}")
            #expect(removed.status == .ok && removed.object["id"] as? Int == 3, "\(removed.text)")
            #expect(try Self.refuel(3, db: db) == nil)
        }
    }

    /// A UK car's pump sells imperial gallons: the form asks for gallons and the fuel log gets litres.
    @Test func aUKCarsRefuelFormTakesImperialGallons() async throws {
        let db = try WebRig.store()
        #expect(try WebRig.cli(["vehicle", "set", "--units", "uk", "--db", db]).exitCode == 0)
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let form = try await web.send(.get, "/refuels/new")
            #expect(form.text.contains("name=\"gallons\"") && !form.text.contains("name=\"liters\""))
            // 8 gallons at the usual 1.80 a litre: 65.47.
            let saved = try await web.send(.post, "/refuels", form: "csrf=\(web.csrfToken)&gallons=8&cost=65.47&full=1&station=Gallons", csrf: false)
            #expect(saved.status == .ok, "\(saved.text.prefix(400))")
            let log = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
            let entry = try #require(log.first { $0["station"] as? String == "Gallons" })
            #expect(abs((entry["liters"] as? Double ?? 0) - 8 * 4.546_09) < 0.001, "\(entry)")
        }
    }

    /// Without the car's service nobody can tap: the driver is added all the same and the page says why.
    @Test func aDriverAddedWithoutTheServiceIsStoredAndThePageSaysWhyNoTap() async throws {
        let db = try WebRig.store()
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let added = try await web.send(.post, "/drivers/add", form: "csrf=\(web.csrfToken)&name=Dora", csrf: false)
            #expect(added.status == .unprocessableContent, "\(added.text.prefix(400))")
            #expect(added.text.contains("Dora is added.") && added.text.contains("does not answer"))
            let list = try WebRig.cli(["provision", "driver", "list", "--db", db]).standardOutput
            #expect(list.contains("\tDora\n"), "\(list)")
            #expect(try await web.send(.get, "/api/v1/drivers/learning").object["state"] as? String == "none")
            let learn = try await web.send(.post, "/api/v1/drivers/1/learn", json: "{\"step\":\"tag\"}")
            #expect(learn.status == .unprocessableContent, "\(learn.text)")
            #expect(try await web.send(.post, "/api/v1/drivers/1/learn", json: "{\"step\":\"fob\"}").status == .badRequest)
            // A second Dora is refused by the store's own rule; nothing added.
            #expect(try await web.send(.post, "/api/v1/drivers", json: "{\"name\":\"dora\"}").status == .unprocessableContent)
            let drivers = try WebRig.cli(["provision", "driver", "list", "--db", db]).standardOutput
            #expect(drivers.components(separatedBy: "Dora").count == 2)
        }
    }

    @Test func theHomePageShowsTheStoresTankAndSaysWhetherItIsDrivenIsNotKnown() async throws {
        let db = try WebRig.store()
        let tank = try #require(try TripStore(path: db, readOnly: true).estimatedTankLiters())
        try await WebRig.serve(db) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let now = try #require(try await web.send(.get, "/api/v1/home").object["now"] as? [String: Any])
            #expect(now["driving"] as? String == "not_known" && now["driver"] is NSNull)
            #expect(abs((now["tank_l"] as? Double ?? -1) - tank) < 0.001)
            let page = try await web.send(.get, "/")
            #expect(page.text.contains("data-driving=\"unknown\"") && page.text.contains("not known"))
        }
    }
}
