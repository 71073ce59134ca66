import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Testing

/// Commands from the hub go through the CLI's store operations in one transaction with the
/// record of their id: applied once, refused with the store's reason and no change, remembered
/// for a bounded time, and `resend` queues the book again.
@Suite struct TripStoreFleetCommandTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0
    static let uplink = OutboxUplink(budget: OutboxBudget(maximumMessages: 1_000, maximumBytes: 1 << 20))

    static func command(_ id: String, _ operation: FleetCommand.Operation, force: Bool = false) -> FleetCommand {
        FleetCommand(id: id, issuedUTCMs: t0 + 20 * hour, force: force, operation: operation)
    }

    /// Everything a command could change, to compare before and after a refusal.
    static func book(_ store: TripStore) throws -> String {
        let refuels = try store.refuels().map { "\($0.id):\($0.refuel.liters):\($0.refuel.cost.value):\($0.refuel.settledUTCMs ?? -1)" }
        let sessions = try store.sessions().map { "\($0.id):\($0.driverName)" }
        let untracked = try store.untrackedDriving().map { "u\($0.id)" }
        let outbox = try store.outboxStatistics().pendingMessages
        return "\(refuels) \(sessions) \(untracked) outbox \(outbox)"
    }

    @Test func aRefuelAddedByCommandIsTheCLIsRefuelAndADuplicateChangesNothing() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        store.uplink = Self.uplink
        let add = Self.command("add-1", .refuelAdd(.init(atUTCMs: Self.t0 + 12 * Self.hour, liters: 20, costMinorUnits: 3_500, currency: "EUR")))
        #expect(try store.applyFleetCommand(add, receivedUTCMs: Self.t0 + 21 * Self.hour) == .applied(summary: "refuel 4 added"))
        let refuel = try #require(try store.refuels().last)
        #expect(refuel.refuel.liters == 20 && refuel.refuel.cost == MinorUnits(3_500) && refuel.refuel.enteredUTCMs == add.issuedUTCMs)
        #expect(refuel.refuel.currency == "EUR")
        try TripStoreBookTests.expectBooksAddUp(store)
        let after = try Self.book(store)
        // Its refuel and split messages were queued with it.
        #expect(try store.pendingOutboxMessages(limit: 100).map { $0.topic.split(separator: "/").last! } .contains("refuel"))
        #expect(try store.applyFleetCommand(add, receivedUTCMs: Self.t0 + 22 * Self.hour) == .alreadyApplied)
        #expect(try Self.book(store) == after)
        #expect(try store.fleetCommandApplied(id: "add-1"))
    }

    @Test func aRefusedCommandChangesNothingAndIsNotRemembered() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        store.uplink = Self.uplink
        let before = try Self.book(store)
        let refusals: [(FleetCommand, String)] = [
            (Self.command("r1", .refuelAdd(.init(atUTCMs: Self.t0 + 12 * Self.hour, liters: 400, costMinorUnits: 3_500, currency: "EUR"))), "tank"),
            (Self.command("r2", .refuelAdd(.init(atUTCMs: Self.t0 + 3 * Self.hour, liters: 20, costMinorUnits: 3_500, currency: "EUR"))), "already recorded"),
            (Self.command("r3", .refuelRemove(refuel: 99)), "no refuel with id 99"),
            (Self.command("r4", .tripAssign(trips: ["1"], driver: "Zoe")), "no driver named 'Zoe'"),
            (Self.command("r5", .tripAssign(trips: ["1", "x9"], driver: "Bob")), "not a trip id"),
            (Self.command("r6", .tripDelete(trip: "u1")), "untracked driving"),
            (Self.command("r7", .settle(refuels: [2, 77])), "no refuel with id 77"),
            (Self.command("r8", .refuelEdit(refuel: 2, .init())), "nothing to change"),
            // A cost in another currency than the book's (a hub that read 1500 as yen) never moves money.
            (Self.command("r9", .refuelAdd(.init(atUTCMs: Self.t0 + 12 * Self.hour, liters: 20, costMinorUnits: 1_500, currency: "JPY"))),
             "the command's cost is in JPY, this car's book in EUR: nothing changed"),
            (Self.command("r10", .refuelEdit(refuel: 2, .init(costMinorUnits: 150_000, currency: "JPY"))), "is in JPY, this car's book in EUR"),
            (Self.command("r11", .refuelEdit(refuel: 2, .init(costMinorUnits: 150_000))), "the command's cost does not say its currency"),
        ]
        for (command, reason) in refusals {
            #expect {
                try store.applyFleetCommand(command, receivedUTCMs: Self.t0 + 21 * Self.hour)
            } throws: { error in "\(error)".contains(reason) }
            #expect(try !store.fleetCommandApplied(id: command.id))
        }
        #expect(try Self.book(store) == before)
    }

    @Test func assignSettleUnsettleAndDeleteGoThroughTheStoresRules() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        store.uplink = Self.uplink
        let untracked = try #require(try store.untrackedDriving().first)
        let received = Self.t0 + 21 * Self.hour
        #expect(try store.applyFleetCommand(Self.command("a1", .tripAssign(trips: ["u\(untracked.id)", "1"], driver: "bob")), receivedUTCMs: received)
            == .applied(summary: "2 trip(s) given to Bob"))
        #expect(try store.untrackedDriving().isEmpty)
        #expect(try store.sessions().first?.driverName == "Bob")
        #expect(try store.applyFleetCommand(Self.command("s1", .settle(refuels: [2])), receivedUTCMs: received) == .applied(summary: "settled: 2"))
        #expect(try store.refuels().first { $0.id == 2 }?.refuel.settledUTCMs == Self.t0 + 20 * Self.hour)
        // A settled bill would move: refused without force, as the CLI refuses it.
        #expect { try store.applyFleetCommand(Self.command("d1", .tripDelete(trip: "1")), receivedUTCMs: received) } throws: {
            "\($0)".contains("settled bill")
        }
        #expect(try store.applyFleetCommand(Self.command("u1", .unsettle(refuels: [2])), receivedUTCMs: received) == .applied(summary: "unsettled: 2"))
        #expect(try store.applyFleetCommand(Self.command("d1", .tripDelete(trip: "1")), receivedUTCMs: received) == .applied(summary: "trip 1 deleted"))
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    @Test func appliedIdsAreKeptForTheRetentionWindowOnly() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        let first = Self.t0 + 21 * Self.hour
        _ = try store.applyFleetCommand(Self.command("s1", .settle(refuels: [1])), receivedUTCMs: first)
        let later = first + TripStore.fleetCommandRetentionMs + 1
        _ = try store.applyFleetCommand(FleetCommand(id: "s2", issuedUTCMs: later - 60_000, operation: .settle(refuels: [1])), receivedUTCMs: later)
        #expect(try !store.fleetCommandApplied(id: "s1"))
        #expect(try store.fleetCommandApplied(id: "s2"))
        // Played again once its id is forgotten, s1 is refused: it is older than what is remembered.
        #expect {
            try store.applyFleetCommand(Self.command("s1", .settle(refuels: [1])), receivedUTCMs: first + TripStore.fleetCommandRetentionMs + 2)
        } throws: { "\($0)".contains("longer ago than commands are remembered") }
    }

    @Test func resendQueuesEveryRecordOrOnlyThoseAfterAMessageID() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        let received = Self.t0 + 21 * Self.hour
        // No uplink: nothing to resend, refused.
        #expect { try store.applyFleetCommand(Self.command("x0", .resend(sinceMessageID: 0)), receivedUTCMs: received) } throws: {
            "\($0)".contains("no [uplink]")
        }
        store.uplink = Self.uplink
        // From 0: 3 trips, 3 refuels and their 3 splits, though none was ever published.
        #expect(try store.applyFleetCommand(Self.command("x1", .resend(sinceMessageID: 0)), receivedUTCMs: received)
            == .applied(summary: "9 record message(s) queued again"))
        let sent = try store.pendingOutboxMessages(limit: 100)
        for message in sent { try store.markOutboxMessageSent(message.id) }
        let last = try #require(sent.last?.id.rawValue)
        // One correction after the hub's last message: only its records come again.
        try store.removeRefuel(id: 3)
        let correction = try store.pendingOutboxMessages(limit: 100).count
        #expect(correction >= 1)
        #expect(try store.applyFleetCommand(Self.command("x2", .resend(sinceMessageID: last)), receivedUTCMs: received)
            == .applied(summary: "\(correction) record message(s) queued again"))
        #expect(try store.applyFleetCommand(Self.command("x3", .resend(sinceMessageID: 1 << 40)), receivedUTCMs: received)
            == .applied(summary: "0 record message(s) queued again"))
    }

    @Test func aMoveGivesOneRecordedTripToAnotherDriverByTheAssignRule() throws {
        let family = try TripStoreBookTests.family()
        let store = family.store
        store.uplink = Self.uplink
        let received = Self.t0 + 21 * Self.hour
        let untracked = try #require(try store.untrackedDriving().first)
        let before = try Self.book(store)
        // Refused, changing nothing: untracked driving is assigned, not moved; an unknown trip or driver.
        let refusals: [(FleetCommand, String)] = [
            (Self.command("m1", .tripMove(trip: "u\(untracked.id)", driver: "Bob")), "not a recorded trip"),
            (Self.command("m2", .tripMove(trip: "99", driver: "Bob")), "no trip 99"),
            (Self.command("m3", .tripMove(trip: "1", driver: "Zoe")), "no driver named 'Zoe'"),
            (Self.command("m4", .tripMove(trip: "x", driver: "Bob")), "not a trip id"),
        ]
        for (command, reason) in refusals {
            #expect {
                try store.applyFleetCommand(command, receivedUTCMs: received)
            } throws: { error in "\(error)".contains(reason) }
            #expect(try !store.fleetCommandApplied(id: command.id))
        }
        #expect(try Self.book(store) == before)

        let sentBefore = try store.pendingOutboxMessages(limit: 1_000).count
        let move = Self.command("m5", .tripMove(trip: "1", driver: "cara"))
        #expect(try store.applyFleetCommand(move, receivedUTCMs: received) == .applied(summary: "trip 1 moved from Alice to Cara"))
        #expect(try store.sessions().first { $0.id.rawValue == 1 }?.driverName == "Cara")
        // Alice's share of the bills went to Cara: re-split, and the trip and splits queued up.
        #expect(try TripStoreBookTests.costs(store, 1)["Cara"] != nil)
        try TripStoreBookTests.expectBooksAddUp(store)
        let queued = try store.pendingOutboxMessages(limit: 1_000).dropFirst(sentBefore).map { $0.topic.split(separator: "/").last! }
        #expect(queued.contains("trip") && queued.contains("split"))
        let after = try Self.book(store)
        #expect(try store.applyFleetCommand(move, receivedUTCMs: received) == .alreadyApplied)
        #expect(try Self.book(store) == after)
        // Assign of a recorded trip is accepted as before.
        #expect(try store.applyFleetCommand(Self.command("a9", .tripAssign(trips: ["1"], driver: "Alice")), receivedUTCMs: received)
            == .applied(summary: "1 trip(s) given to Alice"))
    }

    @Test func aBaselineMarkByCommandIsTheCLIsMarkWithItsRefusals() throws {
        let family = try TripStoreBookTests.family()
        let received = Self.t0 + 21 * Self.hour
        // The family's tank was filled up before: a mark after that says nothing, refused as the CLI refuses it.
        let before = try Self.book(family.store)
        #expect {
            try family.store.applyFleetCommand(Self.command("b1", .baselineMark(atUTCMs: Self.t0 + 9 * Self.hour)), receivedUTCMs: received)
        } throws: { "\($0)".contains("before this mark") }
        #expect(try Self.book(family.store) == before)
        #expect(try !family.store.fleetCommandApplied(id: "b1"))

        let (store, _, _) = try FirstFillBillTests.driven()
        store.uplink = Self.uplink
        let mark = Self.command("b2", .baselineMark(atUTCMs: Self.t0 - Self.hour))
        guard case let .applied(summary) = try store.applyFleetCommand(mark, receivedUTCMs: received) else {
            Issue.record("the mark was not applied")
            return
        }
        let recorded = try #require(try store.refuels().first)
        #expect(summary == "refuel \(recorded.id): baseline mark")
        #expect(recorded.refuel.baseline && recorded.refuel.atUTCMs == Self.t0 - Self.hour && recorded.refuel.enteredUTCMs == mark.issuedUTCMs)
        #expect(try store.pendingOutboxMessages(limit: 100).contains { $0.topic.hasSuffix("/refuel") })
        let after = try Self.book(store)
        #expect(try store.applyFleetCommand(mark, receivedUTCMs: received) == .alreadyApplied)
        // A second mark (another id) is the store's refusal: one is recorded already.
        #expect {
            try store.applyFleetCommand(Self.command("b3", .baselineMark(atUTCMs: nil)), receivedUTCMs: received)
        } throws: { "\($0)".contains("a baseline mark is recorded already") }
        #expect(try Self.book(store) == after)
    }

    @Test func aMarkWithoutAMomentIsAtTheCommandsIssueTime() throws {
        let (store, _, _) = try FirstFillBillTests.driven()
        let mark = FleetCommand(id: "b4", issuedUTCMs: Self.t0 - Self.hour, operation: .baselineMark(atUTCMs: nil))
        _ = try store.applyFleetCommand(mark, receivedUTCMs: Self.t0)
        #expect(try store.refuels().first?.refuel.atUTCMs == Self.t0 - Self.hour)
    }
}
