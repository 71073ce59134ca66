import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Testing

/// The fuel log: what a refuel keeps, what is refused, removal, and full-to-full consumption.
@Suite struct TripStoreRefuelLogTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0

    @Test func anOlderStoreGetsTheLogColumnsAndKeepsItsRefuels() throws {
        let path = temporaryStorePath()
        do {
            let connection = try SQLiteConnection(path: path)
            let before = StoreSchema.migrations.prefix { $0.name != "2026-12-06-refuel-log" }
            try Migrator(Array(before)).migrate(connection)
            try connection.execute("""
                UPDATE vehicle SET currency = 'CHF';
                INSERT INTO refuels (id, at_utc_ms, liters, cost_minor, full_tank, odometer_km, station) VALUES
                    (1, 1000, 40, 7250, 1, 12000, 'Shell'), (2, 9000, 10.5, 1999, 0, NULL, NULL);
                INSERT INTO refuel_shares (refuel_id, driver_id, driver_name, fuel_l, cost_minor) VALUES (1, NULL, NULL, 1, 7250);
                """)
        }
        let store = try TripStore(path: path)
        #expect(try Migrator([]).applied(in: store.connection).contains("2026-12-06-refuel-log"))
        let refuels = try store.refuels()
        #expect(refuels.map(\.id) == [1, 2])
        #expect(refuels.map(\.refuel.cost.value) == [7250, 1999])
        #expect(refuels.map(\.refuel.currency) == ["CHF", "CHF"])
        #expect(refuels.map(\.refuel.enteredUTCMs) == [nil, nil])
        #expect(refuels[0].refuel.odometerKilometers == 12000)
        #expect(refuels[0].refuel.station == "Shell")
        #expect(refuels[1].refuel.fullTank == false)
        // The upgrade to the family book re-splits once: the full fill-up is the baseline, the partial one after it is split.
        #expect(try store.connection.scalarInt("SELECT COUNT(*) FROM refuel_shares") == 2)
        #expect(try store.splits().map { $0.shares.reduce(0) { $0 + $1.cost.value } } == [7250, 1999])
        #expect(try store.checkIntegrity(full: true) == [])
    }

    @Test func theLogKeepsEveryField() throws {
        let store = try TripStore(path: temporaryStorePath())
        let input = RefuelInput(
            atUTCMs: Self.t0, liters: 41.27, cost: MinorUnits(7_512), fullTank: false, odometerKilometers: 23_456.7,
            fuelType: "petrol", station: "Total, Rue de Rivoli", note: "after the holidays", currency: "EUR",
            enteredUTCMs: Self.t0 + 60_000)
        let id = try store.addRefuel(input)
        let stored = try #require(try store.refuels().first)
        #expect(stored.id == id)
        // The bill takes the vehicle's untracked policy of the day it was entered.
        var expected = input
        expected.untrackedPolicy = .owner
        #expect(stored.refuel == expected)
        // Without a currency the vehicle's is recorded.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + Self.hour, liters: 5, cost: MinorUnits(900)))
        #expect(try store.refuels().last?.refuel.currency == "EUR")
    }

    @Test(arguments: [
        (RefuelInput(atUTCMs: 0, liters: 0, cost: MinorUnits(100)), "litres must be more than 0"),
        (RefuelInput(atUTCMs: 0, liters: -3, cost: MinorUnits(100)), "litres must be more than 0"),
        (RefuelInput(atUTCMs: 0, liters: .nan, cost: MinorUnits(100)), "litres must be more than 0"),
        (RefuelInput(atUTCMs: 0, liters: 58, cost: MinorUnits(100)), "58.0 L is more than the 55.0 L tank"),
        (RefuelInput(atUTCMs: 0, liters: 20, cost: MinorUnits(-1)), "the cost cannot be negative"),
        (RefuelInput(atUTCMs: 0, liters: 20, cost: MinorUnits(100), fuelType: "diesel"),
         "this vehicle runs on petrol, not diesel (change it with `fairfuel vehicle set --fuel`)"),
        (RefuelInput(atUTCMs: 0, liters: 20, cost: MinorUnits(100), fuelType: "kerosene"), "fuel 'kerosene' is not petrol, diesel or lpg"),
        (RefuelInput(atUTCMs: 0, liters: 20, cost: MinorUnits(100), currency: "USD"), "the bill is in USD but the vehicle's currency is EUR"),
        (RefuelInput(atUTCMs: 0, liters: 20, cost: MinorUnits(100), odometerKilometers: -5), "the odometer reading -5.0 km is not a reading"),
        (RefuelInput(atUTCMs: 0, liters: 20, cost: MinorUnits(100), note: "a\u{7}b"), "the note contains control characters"),
    ])
    func nonsenseIsRefusedAndChangesNothing(input: RefuelInput, message: String) throws {
        let store = try TripStore(path: temporaryStorePath())
        #expect(throws: StoreError.invalid(message)) { try store.addRefuel(input) }
        #expect(try store.refuels().isEmpty)
    }

    @Test func theSameRefuelTwiceIsRefused() throws {
        let store = try TripStore(path: temporaryStorePath())
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: 30, cost: MinorUnits(5_000)))
        for offset: Int64 in [0, 59_999, -59_999] {
            #expect(throws: StoreError.invalid("a refuel at that moment is already recorded")) {
                try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + offset, liters: 30, cost: MinorUnits(5_000)))
            }
        }
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 60_000, liters: 2, cost: MinorUnits(300)))
        #expect(try store.refuels().count == 2)
    }

    @Test func theOdometerNeverGoesBackwards() throws {
        let store = try TripStore(path: temporaryStorePath())
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: 30, cost: MinorUnits(5_000), odometerKilometers: 10_000))
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 48 * Self.hour, liters: 30, cost: MinorUnits(5_000), odometerKilometers: 10_600))
        // Later than the first but lower.
        #expect(throws: StoreError.invalid("the odometer goes backwards: 9990.0 km here, 10000.0 km at the refuel of 2026-11-18T11:06:40.000Z")) {
            try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 24 * Self.hour, liters: 30, cost: MinorUnits(5_000), odometerKilometers: 9_990))
        }
        // Between the two but higher than the later one.
        #expect(throws: StoreError.self) {
            try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 24 * Self.hour, liters: 30, cost: MinorUnits(5_000), odometerKilometers: 10_700))
        }
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 24 * Self.hour, liters: 30, cost: MinorUnits(5_000), odometerKilometers: 10_300))
        // A refuel without a reading is always fine.
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 30 * Self.hour, liters: 30, cost: MinorUnits(5_000)))
        #expect(try store.refuels().map(\.refuel.odometerKilometers) == [10_000, 10_300, nil, 10_600])
    }

    @Test func removingARefuelResplitsTheRest() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        try TripStoreSplitTests.session(store, driver: bob, name: "Bob", start: 2, end: 3, liters: 4)
        try TripStoreSplitTests.baseline(store)
        let first = try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + Self.hour + 60_000, liters: 4, cost: MinorUnits(800)))
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 4 * Self.hour, liters: 4, cost: MinorUnits(801)))
        #expect(try store.splits().dropFirst().map { $0.shares.map(\.driverName) } == [["Alice"], ["Bob"]])
        try store.removeRefuel(id: first)
        let splits = Array(try store.splits().dropFirst())
        #expect(splits.count == 1)
        #expect(splits[0].shares.map(\.driverName) == ["Alice", "Bob"])
        #expect(splits[0].shares.map(\.cost.value) == [401, 400])
        #expect(throws: StoreError.notFound("no refuel with id \(first)")) { try store.removeRefuel(id: first) }
    }

    @Test func fullFillPeriodsSetThePumpBesideTheEstimate() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        // 100 km estimated at 6 L; the pump says 7 L over 100 km of odometer (a partial fill between).
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 1, end: 2, liters: 3, meters: 50_000)
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 4, end: 5, liters: 3, meters: 50_000)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0, liters: 40, cost: MinorUnits(7_000), odometerKilometers: 1_000))
        #expect(try store.fullFillPeriods().isEmpty)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 3 * Self.hour, liters: 2, cost: MinorUnits(350), fullTank: false))
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 6 * Self.hour, liters: 5, cost: MinorUnits(900), odometerKilometers: 1_100))
        let periods = try store.fullFillPeriods()
        #expect(periods.count == 1)
        let period = try #require(periods.first)
        #expect(period.fromUTCMs == Self.t0)
        #expect(period.toUTCMs == Self.t0 + 6 * Self.hour)
        #expect(period.pumpedLiters == 7)
        #expect(abs(period.estimatedLiters - 6) < 1e-6)
        #expect(abs(period.trackedMeters - 100_000) < 1e-3)
        #expect(period.odometerKilometers == 100)
        #expect(abs((period.realLitersPer100km ?? 0) - 7) < 1e-9)
        #expect(abs((period.estimatedLitersPer100km ?? 0) - 6) < 1e-6)
    }
}
