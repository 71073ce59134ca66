import FairFuelCore
import FairFuelDomain
@testable import FairFuelStore
import Testing

/// The typing checks of a refuel a person entered live in the store's add and edit: a date after the
/// entering side's clock and a price per litre far from the car's usual one are held back until
/// confirmed (`force`), for the CLI, the web app and a hub's command alike.
@Suite struct RefuelEntryCheckTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0

    /// The family's book: three bills at 1.75 to 2.00 EUR/L, the last at t0 + 10 h.
    static func store() throws -> TripStore { try TripStoreBookTests.family().store }

    @Test func aRefuelDatedAfterTheEntryClockNeedsConfirmation() throws {
        let store = try Self.store()
        let now = Self.t0 + 20 * Self.hour
        let ahead = RefuelInput(atUTCMs: now + 11 * 60_000, liters: 20, cost: MinorUnits(4_000))
        #expect {
            try store.addRefuel(ahead, entryClockUTCMs: now)
        } throws: { error in
            (error as? StoreError)?.confirmation == .future(atUTCMs: ahead.atUTCMs, nowUTCMs: now)
                && (error as? StoreError)?.kind == .needsConfirmation && "\(error)".contains("is in the future")
        }
        #expect(try store.refuels().count == 3)
        // A pump's clock a few minutes ahead is no typo.
        let id = try store.addRefuel(RefuelInput(atUTCMs: now + 9 * 60_000, liters: 20, cost: MinorUnits(4_000)), entryClockUTCMs: now)
        // Moving it into the future is the same typo; confirmed, it goes ahead.
        let moved = RefuelEdit(atUTCMs: now + 3 * Self.hour)
        #expect { try store.editRefuel(id: id, moved, entryClockUTCMs: now) } throws: {
            ($0 as? StoreError)?.confirmation == .future(atUTCMs: now + 3 * Self.hour, nowUTCMs: now)
        }
        #expect(try store.refuels().last?.refuel.atUTCMs == now + 9 * 60_000)
        try store.editRefuel(id: id, moved, force: true, entryClockUTCMs: now)
        #expect(try store.refuels().last?.refuel.atUTCMs == now + 3 * Self.hour)
    }

    @Test func aPriceFarFromTheCarsUsualOneNeedsConfirmation() throws {
        let store = try Self.store()
        let now = Self.t0 + 20 * Self.hour
        let typo = RefuelInput(atUTCMs: Self.t0 + 12 * Self.hour, liters: 0.5, cost: MinorUnits(8_000))
        #expect { try store.addRefuel(typo, entryClockUTCMs: now) } throws: { error in
            guard case let .unusualPrice(finding, cost, liters, currency)? = (error as? StoreError)?.confirmation else { return false }
            return finding.pricePerLiter == 16_000 && cost == typo.cost && liters == 0.5 && currency == "EUR"
                && "\(error)".contains("far from this car's usual 2.00 EUR/L")
        }
        #expect(try store.refuels().count == 3)
        let id = try store.addRefuel(typo, force: true, entryClockUTCMs: now)
        #expect(try store.refuels().count == 4)
        // The same rule for a correction: ten times the price is refused, the usual one goes.
        #expect { try store.editRefuel(id: id, RefuelEdit(liters: 0.5, cost: MinorUnits(80_000)), entryClockUTCMs: now) } throws: {
            ($0 as? StoreError)?.kind == .needsConfirmation
        }
        try store.editRefuel(id: id, RefuelEdit(liters: 40, cost: MinorUnits(8_000)), entryClockUTCMs: now)
        #expect(try store.refuels().last?.refuel.liters == 40)
    }

    /// The web app and the CLI answer by the kind, never by the wording.
    @Test func refusalsSayTheirKind() throws {
        let store = try Self.store()
        #expect { try store.removeRefuel(id: 99) } throws: { ($0 as? StoreError)?.kind == .notFound }
        #expect { try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: 400, cost: MinorUnits(1))) } throws: {
            ($0 as? StoreError)?.kind == .invalid
        }
        try store.settleRefuels([2], atUTCMs: Self.t0 + 20 * Self.hour)
        // Removing the refuel before a settled bill widens its period: a confirmation, worded by the caller.
        #expect { try store.removeRefuel(id: 1) } throws: { error in
            guard let confirmation = (error as? StoreError)?.confirmation, case .touchesSettled = confirmation else { return false }
            return confirmation.text(goAhead: "confirm").contains("or confirm to make the change") && !confirmation.text(goAhead: "confirm").contains("--force")
        }
    }

    /// A refuel from the hub gets the same checks against the car's clock when the command arrived,
    /// and is answered refused with the reason; the hub's force lets it through as the CLI's does.
    @Test func aHubsRefuelCommandIsCheckedAsTheCLIsIs() throws {
        let store = try Self.store()
        store.uplink = TripStoreFleetCommandTests.uplink
        let received = Self.t0 + 21 * Self.hour
        let absurd = FleetCommand.RefuelFields(atUTCMs: Self.t0 + 12 * Self.hour, liters: 0.5, costMinorUnits: 8_000, currency: "EUR")
        #expect {
            try store.applyFleetCommand(TripStoreFleetCommandTests.command("p1", .refuelAdd(absurd)), receivedUTCMs: received)
        } throws: { "\($0)".contains("far from this car's usual") }
        #expect(try !store.fleetCommandApplied(id: "p1"))
        let future = FleetCommand.RefuelFields(atUTCMs: received + 24 * Self.hour, liters: 20, costMinorUnits: 4_000, currency: "EUR")
        #expect {
            try store.applyFleetCommand(TripStoreFleetCommandTests.command("f1", .refuelAdd(future)), receivedUTCMs: received)
        } throws: { "\($0)".contains("is in the future") }
        #expect(try store.refuels().count == 3)
        #expect(try store.applyFleetCommand(TripStoreFleetCommandTests.command("p2", .refuelAdd(absurd), force: true), receivedUTCMs: received)
            == .applied(summary: "refuel 4 added"))
        let correction = FleetCommand.RefuelChanges(costMinorUnits: 800_000, currency: "EUR")
        #expect {
            try store.applyFleetCommand(TripStoreFleetCommandTests.command("e1", .refuelEdit(refuel: 3, correction)), receivedUTCMs: received)
        } throws: { ($0 as? StoreError)?.kind == .needsConfirmation }
        #expect(try store.refuels().first { $0.id == 3 }?.refuel.cost == MinorUnits(2_601))
    }

    /// The open bill is what the next refuel's bill will be: each party's fuel since the last refuel,
    /// split by the same rule, at the last bill's price.
    @Test func theOpenBillIsTheSplitOfARefuelAddedRightAfter() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        try TripStoreSplitTests.session(store, driver: family.alice, name: "Alice", start: 11, end: 12, liters: 5)
        try TripStoreSplitTests.session(store, driver: family.bob, name: "Bob", start: 12.5, end: 13, liters: 3)
        try store.addUntracked(fromUTCMs: Self.t0 + 13 * Self.hour, toUTCMs: Self.t0 + 14 * Self.hour, distanceMeters: 9_000, fuelLiters: 2)
        let open = try store.openBill()
        #expect(open.sinceUTCMs == Self.t0 + 10 * Self.hour)
        #expect(open.untilUTCMs == Self.t0 + 14 * Self.hour)
        #expect(open.estimatedPricePerLiter == 2_601.0 / 13)
        #expect(abs(open.fuelLiters - 10) < 0.01)
        #expect(open.shares.map(\.driverName).prefix(2) == ["Alice", "Bob"])
        let id = try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 15 * Self.hour, liters: 10, cost: open.estimatedCost))
        let bill = try #require(try store.splits().first { $0.id == id })
        func keyed(_ shares: [RefuelSplit.Share]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: shares.map {
                ($0.driverName ?? "(untracked)", "\($0.cost.value) \(DisplayText.fixed($0.fuelLiters))")
            })
        }
        #expect(keyed(open.shares) == keyed(bill.shares))
        #expect(open.estimatedCost.value == 2_001)
        // Right after it, nothing is open.
        let after = try store.openBill()
        #expect(after.sinceUTCMs == Self.t0 + 15 * Self.hour && after.shares.isEmpty && after.estimatedCost == .zero, "\(after)")
    }
}

private enum DisplayText {
    static func fixed(_ liters: Double) -> String { String(Int64((liters * 1_000).rounded())) }
}
