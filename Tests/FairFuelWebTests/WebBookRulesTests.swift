import FairFuelCore
import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Synchronization
import Testing
import TestSupport

/// The web app's changes go through the store's rules as the CLI's do: the store's typing checks ask
/// for a confirmation in the web's words, a settle tells the running service as the CLI's does, and the
/// home page's open bill is the store's.
@Suite(.serialized) struct WebBookRulesTests {
    /// How many times the running service would have been told of a change.
    final class Told: Sendable {
        let count = Atomic<Int>(0)
        var times: Int { count.load(ordering: .relaxed) }
    }

    /// The rig's configuration, counting the times the running service would be told of a change.
    static func book(_ db: String, told: Told) throws -> WebBook {
        let rig = WebRig.configuration(db)
        let configuration = WebConfiguration(
            storePath: db, units: rig.units, nowUTCMs: rig.nowUTCMs, afterBookChange: { told.count.add(1, ordering: .relaxed) })
        return try WebBook(configuration: configuration)
    }

    /// The CLI's `refuel settle` tells the running service (the bills it publishes carry their mark): the web's does alike.
    @Test func aSettleOnTheWebTellsTheRunningServiceAsTheCLIsDoes() async throws {
        let db = try WebRig.store()
        let told = Told()
        let book = try Self.book(db, told: told)
        #expect(try await book.settle(2))
        #expect(told.times == 1)
        #expect(try TripStore(path: db, readOnly: true).refuels().first { $0.id == 2 }?.refuel.settledUTCMs != nil)
        // Settled already: nothing changed, nobody to tell.
        #expect(try await !book.settle(2))
        #expect(told.times == 1)
        #expect(try await book.unsettle(2).unsettled)
        #expect(told.times == 2)
    }

    /// A refuel dated after the request's clock is the store's typo: asked about in the web's words
    /// ("confirm", the vehicle's time), never the CLI's, and entered once confirmed.
    @Test func aRefuelInTheFutureAsksForAConfirmationInTheWebsWords() async throws {
        let db = try WebRig.store()
        let told = Told()
        let book = try Self.book(db, told: told)
        let later = WebRig.configuration(db).nowUTCMs() + 30 * 86_400_000
        let input = RefuelInput(atUTCMs: later, liters: 2, cost: MinorUnits(362))
        do throws(WebError) {
            _ = try await book.addRefuel(input, confirmed: false)
            Issue.record("a refuel a month ahead was entered")
        } catch {
            #expect(error.status == .conflict && error.code == "needs_confirmation", "\(error)")
            #expect(error.description.contains("is in the future") && error.description.contains("or confirm if it is right"), "\(error)")
            #expect(!error.description.contains("--force"), "\(error)")
        }
        #expect(try TripStore(path: db, readOnly: true).refuels().count == 3)
        let (id, _) = try await book.addRefuel(input, confirmed: true)
        #expect(try TripStore(path: db, readOnly: true).refuels().last?.id == id)
    }

    /// A missing refuel is 404 and a refused one 422 by the store's kind, whatever its wording.
    @Test func theStoresRefusalsAreToldByTheirKind() {
        #expect(WebError(StoreError.notFound("nothing by that name")).status == .notFound)
        #expect(WebError(StoreError.invalid("no trip to assign")).status == .unprocessableContent)
        let settled = WebError(StoreError.needsConfirmation(.touchesSettled(bills: [2])))
        #expect(settled.status == .conflict && settled.description.contains("or confirm to make the change") && !settled.description.contains("--force"))
        #expect(WebError(StoreError.diskFull(path: "/x", operation: "write")).status == .serviceUnavailable)
    }

    /// "This month" is the month of the request's clock in the vehicle's time zone, not the data's
    /// latest; the open bill on the page and in the API is the store's (`TripStore.openBill`).
    @Test func theHomePagesMonthIsTodaysAndItsOpenBillIsTheStores() async throws {
        let db = try WebRig.store()
        // Refuels up to 2026-11-21 and driving after the last, which the next bill will count.
        let november23: Int64 = 1_795_392_000_000  // 2026-11-23T00:00Z
        try TripStore(path: db).addUntracked(fromUTCMs: november23, toUTCMs: november23 + 3_600_000, distanceMeters: 30_000, fuelLiters: 2.5)
        let open = try TripStore(path: db, readOnly: true).openBill()
        let january2027: Int64 = 1_798_761_600_000 + 86_400_000  // 2027-01-02T00:00Z
        try await WebRig.serve(db, configure: { $0.nowUTCMs = { january2027 } }) { web in
            _ = try await web.logIn("mum", WebRig.familyPassword)
            let home = try await web.send(.get, "/api/v1/home").object
            #expect(home["month"] as? String == "2027-01")
            #expect((home["month_drivers"] as? [Any])?.isEmpty == true, "nobody drove in January: \(home)")
            let bill = try #require(home["open_bill"] as? [String: Any])
            let drivers = try #require(bill["drivers"] as? [[String: Any]])
            #expect(drivers.map { $0["driver"] as? String } == open.shares.map { $0.driver == nil ? nil : $0.driverName })
            #expect(drivers.map { $0["estimated_cost_cents"] as? Int } == open.shares.map { Int($0.cost.value) })
            #expect(open.estimatedPricePerLiter != nil && !open.shares.isEmpty)
            let page = try await web.send(.get, "/")
            #expect(page.text.contains("This month: 2027-01") && page.text.contains("id=\"open-bill\""), "\(page.text)")
            for share in open.shares {
                #expect(page.text.contains("data-cost-cents=\"\(share.cost.value)\""), "\(share)")
            }
        }
    }
}
