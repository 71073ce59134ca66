import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// The family's book: trips assigned and deleted, bills settled, policies changed from a date,
/// refuels corrected; after every step each bill's shares sum to it to the cent, and the
/// stored shares are what a fresh re-split gives.
@Suite struct TripStoreBookTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0

    struct Family {
        var store: TripStore
        var alice: DriverID
        var bob: DriverID
        var cara: DriverID
    }

    /// Baseline fill at -1 h; Alice 0-1 h (4 L); Bob 2-4 h (8 L), cut by the 3 h refuel;
    /// untracked 5-6 h (3 L); Alice 7-8 h (2 L); refuels at 3 h (60.00) and 10 h (26.01).
    static func family() throws -> Family {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        let cara = try store.addDriver(name: "Cara", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        try TripStoreSplitTests.session(store, driver: bob, name: "Bob", start: 2, end: 4, liters: 8)
        try store.addUntracked(fromUTCMs: t0 + 5 * hour, toUTCMs: t0 + 6 * hour, distanceMeters: 20_000, fuelLiters: 3)
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 7, end: 8, liters: 2)
        try TripStoreSplitTests.baseline(store)
        try store.addRefuel(RefuelInput(atUTCMs: t0 + 3 * hour, liters: 30, cost: MinorUnits(6_000)))
        try store.addRefuel(RefuelInput(atUTCMs: t0 + 10 * hour, liters: 13, cost: MinorUnits(2_601)))
        try expectBooksAddUp(store)
        return Family(store: store, alice: alice, bob: bob, cara: cara)
    }

    /// Every bill's shares sum to it, and a re-split now would move nothing (the stored books are whole).
    static func expectBooksAddUp(_ store: TripStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for split in try store.splits() {
            #expect(split.shares.reduce(0) { $0 + $1.cost.value } == split.refuel.cost.value,
                    "bill \(split.id) does not add up", sourceLocation: sourceLocation)
        }
        #expect(try store.rebook(force: false) {}.bills.isEmpty, "a fresh re-split moves something", sourceLocation: sourceLocation)
    }

    static func costs(_ store: TripStore, _ bill: Int) throws -> [String: Int64] {
        var costs: [String: Int64] = [:]
        for share in try store.splits()[bill].shares {
            costs[share.beforeTracking ? "(before tracking)" : share.driverName ?? "(untracked)", default: 0] += share.cost.value
        }
        return costs
    }

    @Test func theFirstFullFillUpIsTheBaselineAndIsNotSplit() throws {
        let family = try Self.family()
        let splits = try family.store.splits()
        #expect(splits.count == 3)
        #expect(splits[0].shares.count == 1)
        #expect(splits[0].shares[0].beforeTracking)
        #expect(splits[0].shares[0].cost == MinorUnits(7_000))
        // Alice 4 L, Bob 4 L (half his trip) in the first bill; Bob 4, untracked 3, Alice 2 in the second.
        #expect(try Self.costs(family.store, 1) == ["Alice": 3_000, "Bob": 3_000])
        #expect(try Self.costs(family.store, 2) == ["Bob": 1_156, "(untracked)": 867, "Alice": 578])
        // A partial fill before the first full one, with no driving before it, is all before tracking too.
        try family.store.addRefuel(RefuelInput(atUTCMs: Self.t0 - 2 * Self.hour, liters: 5, cost: MinorUnits(900), fullTank: false))
        #expect(try family.store.splits().prefix(2).allSatisfy { $0.shares.map(\.beforeTracking) == [true] })
        #expect(Array(try family.store.splits()[2].shares.map(\.driverName)) == ["Alice", "Bob"])
        try Self.expectBooksAddUp(family.store)
    }

    @Test func untrackedDrivingIsListedInTimeOrderWithItsOwnID() throws {
        let family = try Self.family()
        let untracked = try family.store.untrackedDriving()
        #expect(untracked.count == 1)
        #expect(try family.store.tripReferences() == [.session(1), .session(2), .untracked(untracked[0].id), .session(3)])
        #expect(TripReference("u7") == .untracked(7))
        #expect(TripReference("U7") == .untracked(7))
        #expect(TripReference("42") == .session(42))
        for bad in ["", "u", "x7", "-1", "0", "7u", "4 2", "u-3", "99999999999999999999"] { #expect(TripReference(bad) == nil, "\(bad)") }
    }

    /// The bills entered before the trips they pay for were stored (a capture replayed into a store
    /// whose refuels the family typed first; a trip a refuel interrupted ending after it): each
    /// trip stored re-splits them, so the books equal those of the everyday order, and a settled
    /// bill stays as it was.
    @Test func billsEnteredBeforeTheirTripsAreSplitWhenTheTripsArrive() throws {
        let everyday = try Self.family()
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        _ = try store.addDriver(name: "Cara", tags: [], beacons: [])
        store.uplink = OutboxUplink(budget: OutboxBudget(maximumMessages: 1_000, maximumBytes: 1 << 20))
        try TripStoreSplitTests.baseline(store)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 3 * Self.hour, liters: 30, cost: MinorUnits(6_000)))
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 10 * Self.hour, liters: 13, cost: MinorUnits(2_601)))
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        #expect(try Self.costs(store, 1) == ["Alice": 6_000])
        try TripStoreSplitTests.session(store, driver: bob, name: "Bob", start: 2, end: 4, liters: 8)
        try store.addUntracked(fromUTCMs: Self.t0 + 5 * Self.hour, toUTCMs: Self.t0 + 6 * Self.hour, distanceMeters: 20_000, fuelLiters: 3)
        // Settled before Alice's last trip arrives: it must stay as it is.
        _ = try store.settleRefuels([3], atUTCMs: Self.t0 + 12 * Self.hour)
        let settled = try Self.costs(store, 2)
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 7, end: 8, liters: 2)
        #expect(try Self.costs(store, 2) == settled)
        #expect(try Self.costs(store, 1) == (try Self.costs(everyday.store, 1)))
        #expect(settled != (try Self.costs(everyday.store, 2)), "settled with Bob's 4 L and the untracked 3 L only")
        // The hub hears of every bill that moved.
        let splits = try TripStoreUplinkTests.messages(store).filter { TripStoreUplinkTests.kind($0.topic) == "split" }
        #expect(splits.contains { $0.json["id"] as? Int64 == 2 && $0.json["revision"] as? Int ?? 0 > 0 })
        try Self.expectBooksAddUp(store)
    }

    /// Assign untracked driving, then move a trip to the right driver, then delete it: the bills
    /// move as the fuel does, and every bill adds up after every step.
    @Test func assignThenDeleteResplitsAndTheBooksAlwaysAddUp() throws {
        let family = try Self.family()
        let store = family.store
        let u = try #require(try store.untrackedDriving().first).id

        let assigned = try store.assignTrips([.untracked(u)], to: family.cara)
        #expect(assigned.trips.count == 1)
        let cara = try #require(assigned.trips[0].session)
        #expect(try store.untrackedDriving().isEmpty)
        let session = try #require(try store.sessions().first { $0.id.rawValue == cara })
        #expect(session.driverName == "Cara")
        #expect(session.assignedFromUntracked == u)
        #expect(session.fuelLiters == 3 && session.distanceMeters == 20_000)
        #expect(assigned.change.bills.map(\.refuelID) == [3])
        #expect(assigned.change.bills[0].before.contains { $0.driver == nil && $0.cost == MinorUnits(867) })
        #expect(assigned.change.bills[0].after.contains { $0.driver == family.cara && $0.cost == MinorUnits(867) })
        #expect(try Self.costs(store, 2) == ["Bob": 1_156, "Cara": 867, "Alice": 578])
        try Self.expectBooksAddUp(store)

        // Bob's trip was Alice's: both bills it spans move.
        let moved = try store.assignTrips([.session(2)], to: family.alice)
        #expect(moved.trips[0].previousDriverName == "Bob")
        #expect(moved.change.bills.map(\.refuelID) == [2, 3])
        #expect(try Self.costs(store, 1) == ["Alice": 6_000])
        #expect(try Self.costs(store, 2) == ["Alice": 1_734, "Cara": 867])
        try Self.expectBooksAddUp(store)

        // Deleting it: its track goes, its fuel stays as untracked driving, cut at the 3 h refuel.
        let deleted = try store.deleteTrip(.session(2))
        #expect(deleted.trip.untracked.count == 2)
        #expect(try store.sessions().map(\.id.rawValue).contains(2) == false)
        #expect(try store.tripPoints(session: SessionID(2)).isEmpty)
        #expect(try store.connection.scalarInt("SELECT COUNT(*) FROM track_chunks WHERE session_id = 2") == 0)
        let pieces = try store.untrackedDriving()
        #expect(pieces.map(\.fromUTCMs) == [Self.t0 + 2 * Self.hour, Self.t0 + 3 * Self.hour])
        #expect(pieces.map(\.toUTCMs) == [Self.t0 + 3 * Self.hour, Self.t0 + 4 * Self.hour])
        #expect(pieces.allSatisfy { abs($0.fuelLiters - 4) < 1e-6 && abs($0.distanceMeters - 500) < 1e-6 })
        #expect(try Self.costs(store, 1) == ["Alice": 3_000, "(untracked)": 3_000])
        #expect(try Self.costs(store, 2) == ["Alice": 578, "Cara": 867, "(untracked)": 1_156])
        try Self.expectBooksAddUp(store)

        // Untracked pieces can be given back to a driver in one range.
        let references = try store.tripReferences()
        let range = references.filter { if case .untracked = $0 { true } else { false } }
        let back = try store.assignTrips(range, to: family.bob)
        #expect(back.trips.count == 2)
        #expect(try Self.costs(store, 1) == ["Alice": 3_000, "Bob": 3_000])
        #expect(try Self.costs(store, 2) == ["Bob": 1_156, "Cara": 867, "Alice": 578])
        try Self.expectBooksAddUp(store)
    }

    @Test func badCorrectionsAreRefusedAndChangeNothing() throws {
        let family = try Self.family()
        let store = family.store
        let sessions = try store.sessions()
        let splits = try store.splits()
        let untracked = try store.untrackedDriving()
        try store.removeDriver(named: "Cara")
        #expect(throws: StoreError.notFound("no trip 99")) { try store.assignTrips([.session(1), .session(99)], to: family.bob) }
        #expect(throws: StoreError.notFound("no trip u99")) { try store.assignTrips([.untracked(99)], to: family.bob) }
        #expect(throws: StoreError.notFound("no current driver with id \(family.cara.rawValue)")) {
            try store.assignTrips([.session(1)], to: family.cara)
        }
        #expect(throws: StoreError.self) { try store.deleteTrip(.untracked(untracked[0].id)) }
        #expect(throws: StoreError.notFound("no trip 99")) { try store.deleteTrip(.session(99)) }
        let run = try store.beginRun(note: "open")
        let open = try store.openSession(driver: family.alice, driverName: "Alice", run: run, startLinkMs: 0, startUTCMs: Self.t0 + 20 * Self.hour)
        #expect(throws: StoreError.invalid("trip \(open.rawValue) is still being driven; end it first (`fairfuel session end`)")) {
            try store.deleteTrip(.session(open.rawValue))
        }
        #expect(try store.sessions().filter { $0.endReason != nil } == sessions)
        #expect(try store.splits() == splits)
        #expect(try store.untrackedDriving() == untracked)
    }

    @Test func aSettledBillNeverChangesAndACorrectionTouchingItAsksForForce() throws {
        let family = try Self.family()
        let store = family.store
        let bills = try store.refuels().map(\.id)
        #expect(try store.settleRefuels([bills[1]], atUTCMs: Self.t0 + 11 * Self.hour) == [bills[1]])
        #expect(try store.settleRefuels([bills[1]], atUTCMs: Self.t0 + 12 * Self.hour).isEmpty)
        #expect(try store.refuels()[1].refuel.settledUTCMs == Self.t0 + 11 * Self.hour)
        let settled = try store.splits()[1]
        let before = try store.splits()

        // Bob's trip spans the settled bill: refused, nothing changes.
        #expect(throws: StoreError.touchesSettled([bills[1]])) { try store.assignTrips([.session(2)], to: family.alice) }
        #expect(try store.splits() == before)
        #expect(try store.sessions().first { $0.id.rawValue == 2 }?.driverName == "Bob")
        #expect(throws: StoreError.touchesSettled([bills[1]])) { try store.deleteTrip(.session(1)) }
        // The refusal says what --force would cost (the settled bill keeps shares the change would move) and how to unsettle it.
        #expect(StoreError.touchesSettled([bills[1]]).description.contains("keep the settled bill(s) as they are (they will not show it)"))
        #expect(StoreError.touchesSettled([bills[1]]).description.contains("`fairfuel refuel unsettle \(bills[1])`"))
        #expect(try store.sessions().count == 3)

        // The settled bill itself cannot be edited or removed.
        #expect(throws: StoreError.self) { try store.editRefuel(id: bills[1], RefuelEdit(cost: MinorUnits(1))) }
        #expect(throws: StoreError.self) { try store.removeRefuel(id: bills[1]) }
        #expect(try store.splits() == before)

        // With force the correction is made; the settled bill stays exactly as it was.
        let forced = try store.assignTrips([.session(2)], to: family.alice, force: true)
        #expect(forced.change.bills.first { $0.refuelID == bills[1] }?.keptSettled == true)
        #expect(try store.splits()[1] == settled)
        #expect(try Self.costs(store, 2) == ["Alice": 1_734, "(untracked)": 867])
        for split in try store.splits() { #expect(split.shares.reduce(0) { $0 + $1.cost.value } == split.refuel.cost.value) }
        // A correction that leaves it alone needs no force.
        let u = try #require(try store.untrackedDriving().first).id
        _ = try store.assignTrips([.untracked(u)], to: family.cara)
        #expect(try store.splits()[1] == settled)
    }

    /// A settled bill counts the fuel since the refuel before it: a refuel entered or moved inside
    /// that period would bill some of it twice, so it is refused with or without force.
    @Test func aRefuelInsideASettledBillsPeriodIsRefusedEvenWithForce() throws {
        let family = try Self.family()
        let store = family.store
        let bills = try store.refuels().map(\.id)
        try store.settleRefuels([bills[1]], atUTCMs: Self.t0 + 11 * Self.hour)
        let books = try store.splits()
        let inside = Self.t0 + 2 * Self.hour
        for force in [false, true] {
            #expect(throws: StoreError.insideSettledPeriod(
                "a refuel", atUTCMs: inside, settled: bills[1], settledBillUTCMs: Self.t0 + 3 * Self.hour, previousUTCMs: Self.t0 - Self.hour)
            ) { try store.addRefuel(RefuelInput(atUTCMs: inside, liters: 5, cost: MinorUnits(1_000)), force: force) }
            // The last bill moved into it, and the refuel before it moved later (shrinking the period from the front).
            #expect(throws: StoreError.insideSettledPeriod(
                "refuel \(bills[2]) moved", atUTCMs: inside, settled: bills[1], settledBillUTCMs: Self.t0 + 3 * Self.hour,
                previousUTCMs: Self.t0 - Self.hour)
            ) { try store.editRefuel(id: bills[2], RefuelEdit(atUTCMs: inside), force: force) }
            #expect(throws: StoreError.self) { try store.editRefuel(id: bills[0], RefuelEdit(atUTCMs: Self.t0), force: force) }
        }
        #expect(try store.splits() == books)
        let message = StoreError.insideSettledPeriod(
            "a refuel", atUTCMs: inside, settled: bills[1], settledBillUTCMs: Self.t0 + 3 * Self.hour, previousUTCMs: nil).description
        #expect(message.contains("since tracking began") && message.contains("billing it twice") && message.contains("even when confirmed") && !message.contains("--force"))
        #expect(message.contains("`fairfuel refuel unsettle \(bills[1])`"))

        // Before the first bill, once it is settled: its period runs back to the start of tracking.
        try store.settleRefuels([bills[0]], atUTCMs: Self.t0 + 11 * Self.hour)
        #expect(throws: StoreError.insideSettledPeriod(
            "a refuel", atUTCMs: Self.t0 - 2 * Self.hour, settled: bills[0], settledBillUTCMs: Self.t0 - Self.hour, previousUTCMs: nil)
        ) { try store.addRefuel(RefuelInput(atUTCMs: Self.t0 - 2 * Self.hour, liters: 5, cost: MinorUnits(1_000)), force: true) }

        // After the settled bills, in an open bill's period: taken, and the settled bills stay as they were.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 6 * Self.hour, liters: 5, cost: MinorUnits(1_000)))
        #expect(try store.splits().prefix(2).map(\.shares) == books.prefix(2).map(\.shares))
        // The open bill after them moved earlier, still after the settled one: taken too (edit --at of the same time as well).
        let added = try store.refuels()[2].id
        _ = try store.editRefuel(id: added, RefuelEdit(atUTCMs: Self.t0 + 5 * Self.hour))
        _ = try store.editRefuel(id: bills[2], RefuelEdit(atUTCMs: Self.t0 + 10 * Self.hour))
        #expect(try store.splits().prefix(2).map(\.shares) == books.prefix(2).map(\.shares))
        try Self.expectBooksAddUp(store)
    }

    /// Unsettling clears the mark and re-splits the bill from the data in one correction: the
    /// family sees each share before and after, and the hub gets the new split.
    @Test func unsettlingReSplitsFromTheDataAndTellsTheHub() throws {
        let family = try Self.family()
        let store = family.store
        store.uplink = OutboxUplink(budget: OutboxBudget(maximumMessages: 1_000, maximumBytes: 1 << 20))
        let bills = try store.refuels().map(\.id)
        try store.settleRefuels([bills[1]], atUTCMs: Self.t0 + 11 * Self.hour)
        // Bob's trip was Alice's: moved with force, the settled bill keeps Bob's half.
        _ = try store.assignTrips([.session(2)], to: family.alice, force: true)
        let kept = try store.splits()[1]
        #expect(try Self.costs(store, 1) == ["Alice": 3_000, "Bob": 3_000])
        func splitMessages() throws -> Int {
            try TripStoreUplinkTests.messages(store).filter { TripStoreUplinkTests.kind($0.topic) == "split" && $0.json["id"] as? Int64 == bills[1] }.count
        }
        let messagesBefore = try splitMessages()

        // An unknown id refuses the lot.
        #expect(throws: StoreError.notFound("no refuel with id 99")) { try store.unsettleRefuels([bills[1], 99]) }
        #expect(try store.refuels()[1].refuel.settledUTCMs != nil)

        let (change, unsettled) = try store.unsettleRefuels([bills[1], bills[2]])
        #expect(unsettled == [bills[1]], "bill 3 was not settled")
        let bill = try #require(change.bills.first { $0.refuelID == bills[1] })
        #expect(bill.before == kept.shares && !bill.keptSettled)
        #expect(try Self.costs(store, 1) == ["Alice": 6_000])
        #expect(try store.refuels()[1].refuel.settledUTCMs == nil)
        #expect(try splitMessages() == messagesBefore + 1)
        try Self.expectBooksAddUp(store)
        // Again: nothing to unsettle, nothing moves.
        #expect(try store.unsettleRefuels([bills[1]]).unsettled.isEmpty)
    }

    @Test func aPolicyChangeAppliesFromADateAndNeverToSettledBills() throws {
        let family = try Self.family()
        let store = family.store
        // A third period with untracked driving only, and the second bill settled.
        try store.addUntracked(fromUTCMs: Self.t0 + 11 * Self.hour, toUTCMs: Self.t0 + 12 * Self.hour, distanceMeters: 9_000, fuelLiters: 1)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 13 * Self.hour, liters: 1, cost: MinorUnits(200)))
        let bills = try store.refuels().map(\.id)
        try store.settleRefuels([bills[1]], atUTCMs: Self.t0 + 14 * Self.hour)
        let settled = try store.splits()[1]

        // Default: every bill not yet settled.
        let all = try store.setUntrackedPolicy(.proRata, fromUTCMs: nil)
        #expect(all.applied == [bills[0], bills[2], bills[3]])
        #expect(all.settledLeftOut.isEmpty)
        #expect(try store.vehicle().untrackedPolicy == .proRata)
        // Bill 3's untracked 3 L now goes to Bob (4 L) and Alice (2 L); bill 4 had untracked only: the owner carries it.
        #expect(try Self.costs(store, 2) == ["Bob": 1_734, "Alice": 867, "(untracked)": 0])
        #expect(all.change.bills.map(\.refuelID) == [bills[2]])
        #expect(try store.splits()[1] == settled)
        try Self.expectBooksAddUp(store)

        // From a date: bills before it keep their policy; a settled bill in range is left out and said.
        let later = try store.setUntrackedPolicy(.owner, fromUTCMs: Self.t0 + 5 * Self.hour)
        #expect(later.applied == [bills[2], bills[3]])
        #expect(later.settledLeftOut.isEmpty)
        #expect(try store.refuels().map(\.refuel.untrackedPolicy) == [.proRata, .owner, .owner, .owner])
        #expect(try Self.costs(store, 2) == ["Bob": 1_156, "(untracked)": 867, "Alice": 578])
        let early = try store.setUntrackedPolicy(.proRata, fromUTCMs: Self.t0)
        #expect(early.settledLeftOut == [bills[1]])
        #expect(try store.splits()[1] == settled)
        // New bills take the vehicle's policy of their day.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 20 * Self.hour, liters: 1, cost: MinorUnits(100)))
        #expect(try store.refuels().last?.refuel.untrackedPolicy == .proRata)
        try Self.expectBooksAddUp(store)
    }

    @Test func editingARefuelResplitsAndRecalibrates() throws {
        let family = try Self.family()
        let store = family.store
        let bills = try store.refuels().map(\.id)
        let calibration = try store.calibrationHistory()
        #expect(calibration.count == 2)
        #expect(abs(calibration[1].trueLiters.value - 13) < 1e-9)

        // The pump said 15 L for the last fill: the period's true litres follow.
        let litres = try store.editRefuel(id: bills[2], RefuelEdit(liters: 15))
        #expect(litres.bills.isEmpty)
        #expect(abs(try store.calibrationHistory()[1].trueLiters.value - 15) < 1e-9)
        // The second fill was at 2 h, not 3 h: Bob's trip moves out of it.
        let moved = try store.editRefuel(id: bills[1], RefuelEdit(atUTCMs: Self.t0 + 2 * Self.hour))
        #expect(moved.bills.map(\.refuelID) == [bills[1], bills[2]])
        #expect(try Self.costs(store, 1) == ["Alice": 6_000])
        // The cost was 61.00, and the first fill-up was partial: the first-fill rule reaches the next full one,
        // where Alice pays her 4 L since the first fill at 61.00 / 30 L, and the rest was before tracking.
        _ = try store.editRefuel(id: bills[1], RefuelEdit(cost: MinorUnits(6_100)))
        #expect(try store.splits()[1].refuel.cost == MinorUnits(6_100))
        _ = try store.editRefuel(id: bills[0], RefuelEdit(fullTank: false))
        #expect(try store.splits().map(\.rule) == [.firstFill, .firstFill, .ordinary])
        #expect(try Self.costs(store, 0) == ["(before tracking)": 7_000])
        #expect(try Self.costs(store, 1) == ["Alice": 813, "(before tracking)": 5_287])
        #expect(try store.calibrationHistory().count == 1)
        try Self.expectBooksAddUp(store)

        // Nonsense is refused and changes nothing.
        let before = try store.splits()
        #expect(throws: StoreError.invalid("litres must be more than 0")) { try store.editRefuel(id: bills[2], RefuelEdit(liters: 0)) }
        #expect(throws: StoreError.invalid("a refuel at that moment is already recorded")) {
            try store.editRefuel(id: bills[2], RefuelEdit(atUTCMs: Self.t0 + 2 * Self.hour + 1_000))
        }
        #expect(throws: StoreError.notFound("no refuel with id 99")) { try store.editRefuel(id: 99, RefuelEdit(liters: 3)) }
        #expect(throws: StoreError.self) { try store.editRefuel(id: bills[2], RefuelEdit()) }
        _ = try store.editRefuel(id: bills[1], RefuelEdit(odometerKilometers: 12_000))
        #expect(throws: StoreError.self) { try store.editRefuel(id: bills[2], RefuelEdit(odometerKilometers: 11_000)) }
        #expect(try store.splits().map(\.shares) == before.map(\.shares))
        #expect(try store.refuels()[2].refuel.liters == 15)
    }

    /// The domain hands untracked driving out a minute at a time: back-to-back chunks are one drive.
    @Test func backToBackUntrackedChunksAreOneDrive() throws {
        let store = try TripStore(path: temporaryStorePath())
        let minute: Int64 = 60_000
        for k: Int64 in 0..<5 {
            try store.addUntracked(fromUTCMs: Self.t0 + k * minute + (k > 0 ? 1_000 : 0), toUTCMs: Self.t0 + (k + 1) * minute,
                                   distanceMeters: 500, fuelLiters: 0.05)
        }
        var drives = try store.untrackedDriving()
        #expect(drives.count == 1)
        #expect(drives[0].fromUTCMs == Self.t0 && drives[0].toUTCMs == Self.t0 + 5 * minute)
        #expect(abs(drives[0].distanceMeters - 2_500) < 1e-9 && abs(drives[0].fuelLiters - 0.25) < 1e-9)
        // A gap of more than 5 s is another drive; so is the chunk after a refuel, or one at another fuel scale.
        try store.addUntracked(fromUTCMs: Self.t0 + 5 * minute + 6_000, toUTCMs: Self.t0 + 6 * minute, distanceMeters: 1, fuelLiters: 0.01)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 6 * minute + 500, liters: 10, cost: MinorUnits(100)))
        try store.addUntracked(fromUTCMs: Self.t0 + 6 * minute + 1_000, toUTCMs: Self.t0 + 7 * minute, distanceMeters: 1, fuelLiters: 0.01)
        try store.addUntracked(fromUTCMs: Self.t0 + 7 * minute, toUTCMs: Self.t0 + 8 * minute, distanceMeters: 1, fuelLiters: 0.01, fuelScale: 1.1)
        drives = try store.untrackedDriving()
        #expect(drives.count == 4)
    }

    @Test func anOlderStoreGetsTheBookColumns() throws {
        let path = temporaryStorePath()
        do {
            let connection = try SQLiteConnection(path: path)
            let before = StoreSchema.migrations.prefix { $0.name != "2026-12-20-family-book" }
            try Migrator(Array(before)).migrate(connection)
            try connection.execute("""
                UPDATE vehicle SET untracked_policy = 'pro_rata';
                INSERT INTO refuels (id, at_utc_ms, liters, cost_minor, full_tank, currency) VALUES (1, 1000, 40, 7250, 1, 'EUR');
                """)
        }
        let store = try TripStore(path: path)
        #expect(try store.refuels().map(\.refuel.untrackedPolicy) == [.proRata])
        // Split once by today's rules on the upgrade: the first full fill-up is the baseline.
        #expect(try store.splits().map { $0.shares.map(\.beforeTracking) } == [[true]])
        #expect(try store.refuels().map(\.refuel.settledUTCMs) == [nil])
        let uid = try #require(try store.connection.scalarText("SELECT uid FROM vehicle WHERE id = 1"))
        #expect(uid.count == 36 && uid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(try store.checkIntegrity(full: true) == [])
    }
}
