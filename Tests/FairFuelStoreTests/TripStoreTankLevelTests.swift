import FairFuelCore
import FairFuelDomain
@testable import FairFuelStore
import Testing

/// The estimated fuel in the tank from a real SQLite store: the split's litres after the latest
/// full-tank refuel, corrections included, read without the history before it.
@Suite struct TripStoreTankLevelTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0

    static func at(_ hours: Double) -> Int64 { t0 + Int64(hours * Double(hour)) }

    /// A 50 L car; Alice drives 0-1 h (4 L), the full refuel at 2 h, Alice 3-5 h (6 L) with a
    /// 2 L partial refuel at 4 h, then 1.5 L of untracked driving at 6-7 h.
    static func store() throws -> (store: TripStore, path: String, alice: DriverID, full: Int64, partial: Int64) {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        var vehicle = try store.vehicle()
        vehicle.tankLiters = 50
        try store.setVehicle(vehicle)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        #expect(try store.estimatedTankLiters() == nil, "no refuel: unknown")
        let full = try store.addRefuel(RefuelInput(atUTCMs: at(2), liters: 40, cost: MinorUnits(7_000)))
        #expect(try store.estimatedTankLiters() == 50, "the driving before the full refuel is not in the tank")
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 3, end: 5, liters: 6)
        let partial = try store.addRefuel(RefuelInput(atUTCMs: at(4), liters: 2, cost: MinorUnits(400), fullTank: false))
        try store.addUntracked(fromUTCMs: at(6), toUTCMs: at(7), distanceMeters: 10_000, fuelLiters: 1.5)
        return (store, path, alice, full, partial)
    }

    static func expectLevel(_ store: TripStore, _ liters: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let level = try #require(try store.estimatedTankLiters(), sourceLocation: sourceLocation)
        #expect(abs(level - liters) < 1e-9, "\(level) L, expected \(liters) L", sourceLocation: sourceLocation)
    }

    @Test func theLevelFallsByWhatTheBillsAreDividedBy() throws {
        let (store, path, _, _, partial) = try Self.store()
        // 50 - 3 (to the partial refuel) + 2 - 3 - 1.5.
        try Self.expectLevel(store, 44.5)
        // The partial refuel's bill covers exactly the litres the tank lost before it.
        let bill = try #require(try store.splits().first { $0.id == partial })
        #expect(abs(bill.shares.reduce(0) { $0 + $1.fuelLiters } - 3) < 1e-9, "\(bill.shares)")
        // The same from the file, opened again.
        try Self.expectLevel(try TripStore(path: path), 44.5)
    }

    @Test func correctionsMoveTheLevelAsTheyMoveTheBills() throws {
        let (store, _, alice, full, partial) = try Self.store()
        // A deleted trip's fuel stays in the books as untracked driving, and in the level.
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        _ = try store.deleteTrip(.session(2))
        try Self.expectLevel(store, 44.5)
        // Untracked driving given to a driver is still the same litres.
        _ = try store.assignTrips(try store.untrackedDriving().map { .untracked($0.id) }, to: bob)
        try Self.expectLevel(store, 44.5)
        // 1 L instead of 2: 47 + 1, then 3 + 1.5 driven.
        _ = try store.editRefuel(id: partial, RefuelEdit(liters: 1))
        try Self.expectLevel(store, 43.5)
        // 5 L: 47 + 5 is capped at 50.
        _ = try store.editRefuel(id: partial, RefuelEdit(liters: 5))
        try Self.expectLevel(store, 45.5)
        // It was a full one of 1 L after all: full at 4 h, 4.5 L driven since.
        _ = try store.editRefuel(id: partial, RefuelEdit(liters: 1, fullTank: true))
        try Self.expectLevel(store, 45.5)
        _ = try store.editRefuel(id: partial, RefuelEdit(fullTank: false))
        try Self.expectLevel(store, 43.5)
        _ = try store.removeRefuel(id: partial)
        try Self.expectLevel(store, 42.5)
        // More driving than the tank holds: empty, not negative.
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 8, end: 9, liters: 45)
        try Self.expectLevel(store, 0)
        _ = try store.removeRefuel(id: full)
        #expect(try store.estimatedTankLiters() == nil, "no full refuel left: unknown")
    }

    @Test func onlyTheDrivingThatReachesPastTheFullRefuelIsRead() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        // Forty old trips, then one that the full refuel at 100.5 h cuts in half.
        for trip in 0..<40 {
            try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: Double(trip) * 2, end: Double(trip) * 2 + 1, liters: 1)
        }
        try store.addRefuel(RefuelInput(atUTCMs: Self.at(-1), liters: 40, cost: MinorUnits(7_000)))
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 100, end: 101, liters: 4)
        try store.addRefuel(RefuelInput(atUTCMs: Self.at(100.5), liters: 30, cost: MinorUnits(6_000)))
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 102, end: 103, liters: 1)
        try Self.expectLevel(store, 55 - 2 - 1)
        // The bounded read gives what the whole history gives.
        let traces = try store.fuelTraces(reachingPast: Self.at(100.5))
        #expect(traces.count == 1 + TripStore.sessionsStartedBeforeAWindow, "\(traces.count) sessions read of 42")
        let all = try store.fuelTraces()
        #expect(all.count == 42)
        #expect(abs(all.reduce(0) { $0 + $1.fuel(from: Self.at(100.5), to: .max) } - 3) < 1e-9)
    }
}
