import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// The first bill after install: each driver pays their estimated fuel since install at the bill's
/// price per litre, only the rest is "before tracking"; a baseline mark makes the next bill an
/// ordinary one; an older store re-splits its unsettled first bill once and keeps a settled one.
@Suite struct FirstFillBillTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0

    /// Cents per party of bill `index`: drivers by name, "(untracked)", "(before tracking)".
    static func costs(_ store: TripStore, _ index: Int) throws -> [String: Int64] {
        try TripStoreBookTests.costs(store, index)
    }

    static func liters(_ store: TripStore, _ index: Int) throws -> [String: Double] {
        var liters: [String: Double] = [:]
        for share in try store.splits()[index].shares {
            liters[share.beforeTracking ? "(before tracking)" : share.driverName ?? "(untracked)", default: 0] += share.fuelLiters
        }
        return liters
    }

    /// Alice 0-1 h (4 L), Bob 2-3 h (2 L), untracked 3.5-4 h (1 L): 7 L since install.
    static func driven() throws -> (store: TripStore, alice: DriverID, bob: DriverID) {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        try TripStoreSplitTests.session(store, driver: bob, name: "Bob", start: 2, end: 3, liters: 2)
        try store.addUntracked(fromUTCMs: t0 + 7 * hour / 2, toUTCMs: t0 + 4 * hour, distanceMeters: 8_000, fuelLiters: 1)
        return (store, alice, bob)
    }

    @Test func theFirstBillChargesEachDriverTheirEstimateAndOnlyTheRestIsBeforeTracking() throws {
        let (store, alice, _) = try Self.driven()
        // 30 L for 60.00: 2.00 a litre; 7 L were driven since install (14.00), 23 L burnt before it.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 30, cost: MinorUnits(6_000)))
        let first = try Self.costs(store, 0)
        #expect(first == ["Alice": 800, "Bob": 400, "(untracked)": 200, "(before tracking)": 4_600])
        let liters = try Self.liters(store, 0)
        #expect(abs(liters["(before tracking)"]! - 23) < 1e-6)
        #expect(abs(liters["Alice"]! - 4) < 1e-6 && abs(liters["Bob"]! - 2) < 1e-6)
        #expect(try store.splits()[0].rule == .firstFill)
        // The next bill is an ordinary one: Alice's 3 L since the first fill-up.
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 6, end: 7, liters: 3)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 8 * Self.hour, liters: 3, cost: MinorUnits(615)))
        #expect(try Self.costs(store, 1) == ["Alice": 615])
        #expect(try store.splits().map(\.rule) == [.firstFill, .ordinary])
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    @Test func estimatesAboveThePumpScaleDownTogetherAndBillNothingTwice() throws {
        let (store, _, _) = try Self.driven()
        // An install with a nearly full tank: 3.5 L put back for 7 L estimated, 7.01 in all.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 3.5, cost: MinorUnits(701)))
        // 4 : 2 : 1 of 701 is 400.57, 200.29, 100.14: the leftover cent goes to the largest remainder.
        #expect(try Self.costs(store, 0) == ["Alice": 401, "Bob": 200, "(untracked)": 100])
        // The litres charged are the litres pumped, every party's scaled by the same half.
        let liters = try Self.liters(store, 0)
        #expect(abs(liters.values.reduce(0, +) - 3.5) < 1e-6)
        #expect(abs(liters["Alice"]! - 2) < 1e-6 && abs(liters["Bob"]! - 1) < 1e-6 && abs(liters["(untracked)"]! - 0.5) < 1e-6)
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    @Test func partialFillsBeforeTheFirstFullOneCarryWhatTheyCouldNotCover() throws {
        let (store, _, _) = try Self.driven()
        // After Alice's 4 L, a 2 L top-up for 4.00: it covers half of her fuel, the rest carries on.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 3 * Self.hour / 2, liters: 2, cost: MinorUnits(400), fullTank: false))
        // The first full fill-up: 20 L for 40.00 after Bob's 2 L and 1 L untracked, with Alice's 2 L carried.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 20, cost: MinorUnits(4_000)))
        #expect(try Self.costs(store, 0) == ["Alice": 400])
        #expect(try Self.costs(store, 1) == ["Alice": 400, "Bob": 400, "(untracked)": 200, "(before tracking)": 3_000])
        #expect(try store.splits().map(\.rule) == [.firstFill, .firstFill])
        // Alice paid for her 4 L once: 2 L on each bill; what was burnt before install is 22 - 7 = 15 L.
        #expect(abs(try Self.liters(store, 0)["Alice"]! + Self.liters(store, 1)["Alice"]! - 4) < 1e-6)
        #expect(abs(try Self.liters(store, 1)["(before tracking)"]! - 15) < 1e-6)
        // A partial fill bigger than the driving since install: its remainder is before tracking too.
        _ = try store.editRefuel(id: store.refuels()[0].id, RefuelEdit(liters: 10, cost: MinorUnits(2_000)))
        #expect(try Self.costs(store, 0) == ["Alice": 800, "(before tracking)": 1_200])
        #expect(try Self.costs(store, 1) == ["Bob": 400, "(untracked)": 200, "(before tracking)": 3_400])
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    @Test func aBaselineMarkMakesTheNextBillOrdinaryAndIsRefusedWhereItSaysNothing() throws {
        let (store, _, _) = try Self.driven()
        #expect(try store.estimatedTankLiters() == nil)
        let (mark, _) = try store.addBaselineMark(atUTCMs: Self.t0 - Self.hour)
        // The tank level counts from the mark as from a full fill-up: full, less the 7 L driven since.
        #expect(abs(try #require(try store.estimatedTankLiters()) - (try store.vehicle().tankLiters - 7)) < 1e-6)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 7, cost: MinorUnits(1_400)))
        // Nothing before tracking: the bill is the driving since the mark, split as any other.
        #expect(try Self.costs(store, 1) == ["Alice": 800, "Bob": 400, "(untracked)": 200])
        let splits = try store.splits()
        #expect(splits.map(\.rule) == [.baseline, .ordinary])
        #expect(splits[0].shares.isEmpty && splits[0].refuel.baseline && splits[0].refuel.liters == 0 && splits[0].refuel.cost == .zero)
        // Calibration measures from the mark: 7 L pumped over the 7 L estimated.
        let calibration = try store.calibrationHistory()
        #expect(calibration.count == 1)
        #expect(abs(calibration[0].trueLiters.value - 7) < 1e-9)

        // Refused, changing nothing: a second mark, a mark after a full fill-up, a full fill-up before
        // the mark, a correction of the mark.
        let before = try store.splits()
        #expect(throws: StoreError.self) { try store.addBaselineMark(atUTCMs: Self.t0 - 2 * Self.hour) }
        #expect(throws: StoreError.self) { try store.editRefuel(id: mark, RefuelEdit(atUTCMs: Self.t0 - 2 * Self.hour)) }
        #expect(throws: StoreError.self) {
            try store.addRefuel(RefuelInput(atUTCMs: Self.t0 - 3 * Self.hour, liters: 30, cost: MinorUnits(6_000)))
        }
        try store.removeRefuel(id: mark)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 - 3 * Self.hour, liters: 30, cost: MinorUnits(6_000)))
        var refusal = ""
        do { _ = try store.addBaselineMark(atUTCMs: Self.t0 - Self.hour) } catch { refusal = "\(error)" }
        #expect(refusal.contains("before this mark"), "a mark after a full fill-up: \(refusal)")
        #expect(try store.splits().map(\.rule) == [.firstFill, .ordinary])
        try store.removeRefuel(id: store.refuels()[0].id)
        let (again, _) = try store.addBaselineMark(atUTCMs: Self.t0 - Self.hour)
        #expect(try store.splits().map(\.shares) == before.map(\.shares))
        #expect(try store.refuels().first?.id == again)

        // A partial fill before the mark is billed by the first-fill rule; the mark starts afresh.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 - 2 * Self.hour, liters: 5, cost: MinorUnits(1_000), fullTank: false))
        #expect(try store.splits().map(\.rule) == [.firstFill, .baseline, .ordinary])
        #expect(try Self.costs(store, 0) == ["(before tracking)": 1_000])
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    @Test func theUplinksSplitMessageSaysWhichRuleTheBillWentBy() throws {
        let (store, _, _) = try Self.driven()
        store.uplink = TripStoreUplinkTests.uplink
        let (mark, _) = try store.addBaselineMark(atUTCMs: Self.t0 - Self.hour)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 7, cost: MinorUnits(1_400)))
        try store.removeRefuel(id: mark)
        let messages = try TripStoreUplinkTests.messages(store).filter { TripStoreUplinkTests.kind($0.topic) != "trip" }
        #expect(messages.map { TripStoreUplinkTests.kind($0.topic) } == ["refuel", "split", "refuel", "split", "refuel", "split"])
        #expect(messages[0].json["baseline"] as? Bool == true && messages[0].json["liters"] as? Double == 0)
        #expect(messages.filter { TripStoreUplinkTests.kind($0.topic) == "split" }.map { $0.json["rule"] as? String }
            == ["baseline", "ordinary", "first_fill"])
    }

    /// A power cut after the rebuild committed and before the migration was recorded: the step runs
    /// again and changes nothing (a mark and its 0 litres included).
    @Test func theRebuildRunTwiceChangesNothing() throws {
        let (store, _, _) = try Self.driven()
        _ = try store.addBaselineMark(atUTCMs: Self.t0 - Self.hour)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 7, cost: MinorUnits(1_400)))
        let connection = store.connection
        let schema = { try connection.query("SELECT name, sql FROM sqlite_master ORDER BY name") { "\($0.text(0) ?? ""): \($0.text(1) ?? "")" } }
        let rows = { try connection.query("SELECT id, liters, baseline, split_rule FROM refuels ORDER BY id") { "\($0.int64(0)) \($0.double(1)) \($0.int(2)) \($0.text(3) ?? "")" } }
        let counter = { try connection.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'refuels'") }
        let before = (try schema(), try rows(), try counter())
        let body = try #require(StoreSchema.firstFillBill.body)
        try body(connection)
        #expect(try schema() == before.0)
        #expect(try rows() == before.1)
        #expect(try counter() == before.2)
        #expect(try connection.scalarText("SELECT sql FROM sqlite_master WHERE name = 'refuels'")?.contains(StoreSchema.litersCheckWithZero) == true)
    }

    /// A store as the schema before the first-fill rule made it: Alice drove 4 L, then the first
    /// full fill-up, 40 L for 72.50, all before tracking as the older rule split it.
    static func olderStore(settled: Bool) throws -> String {
        let path = temporaryStorePath()
        let connection = try SQLiteConnection(path: path)
        let before = StoreSchema.migrations.prefix { $0.name != StoreSchema.firstFillBill.name }
        try Migrator(Array(before)).migrate(connection)
        try connection.execute("""
            INSERT INTO drivers (id, name) VALUES (1, 'Alice');
            INSERT INTO runs (id, started_note) VALUES (1, 'test');
            INSERT INTO sessions (driver_id, driver_name, run_id, start_link_ms, start_utc_ms, end_utc_ms, last_utc_ms, end_reason, fuel_l)
                VALUES (1, 'Alice', 1, 0, \(t0), \(t0 + hour), \(t0 + hour), 'departed', 4);
            INSERT INTO refuels (id, at_utc_ms, liters, cost_minor, full_tank, currency, untracked_policy, settled_utc_ms)
                VALUES (1, \(t0 + 2 * hour), 40, 7250, 1, 'EUR', 'owner', \(settled ? String(t0 + 3 * hour) : "NULL"));
            INSERT INTO refuel_shares (refuel_id, driver_id, driver_name, fuel_l, cost_minor, before_tracking) VALUES (1, NULL, NULL, 4, 7250, 1);
            """)
        return path
    }

    @Test func anOlderStoreResplitsItsUnsettledFirstBillOnceAndLeavesASettledOneAlone() throws {
        let open = try TripStore(path: Self.olderStore(settled: false))
        // 4 L at 72.50 / 40 L is 7.25 to Alice; 36 L before tracking.
        #expect(try Self.costs(open, 0) == ["Alice": 725, "(before tracking)": 6_525])
        #expect(try open.splits()[0].rule == .firstFill)
        #expect(try open.checkIntegrity(full: true) == [])
        // A refuel of no litres is still refused (the column now takes a baseline mark's 0).
        #expect(throws: StoreError.invalid("litres must be more than 0")) {
            try open.addRefuel(RefuelInput(atUTCMs: Self.t0 + 5 * Self.hour, liters: 0, cost: MinorUnits(1)))
        }

        let settledPath = try Self.olderStore(settled: true)
        let settled = try TripStore(path: settledPath)
        #expect(try Self.costs(settled, 0) == ["(before tracking)": 7_250])
        #expect(try settled.splits()[0].rule == .allBeforeTracking)
        #expect(try settled.checkIntegrity(full: true) == [])
        // Only once: unsettled and opened again, it is re-split by today's rule, and stays so.
        _ = try settled.unsettleRefuels([1])
        #expect(try Self.costs(settled, 0) == ["Alice": 725, "(before tracking)": 6_525])
        let reopened = try TripStore(path: settledPath)
        #expect(try reopened.splits()[0].rule == .firstFill)
        #expect(try Migrator(StoreSchema.migrations).applied(in: reopened.connection).contains(StoreSchema.firstFillBill.name))
    }
}
