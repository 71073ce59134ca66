import FairFuelCore
import FairFuelDomain
import FairFuelSQLite
@testable import FairFuelStore
import Foundation
import Testing

/// The car learns its drivers' factors from full tanks over its life: the store keeps every fit,
/// open bills use an adopted one, settled bills never move, and the re-split is a correction.
@Suite struct ConsumptionLearningTests {
    static let hour = TripStoreSplitTests.hour
    static let t0 = TripStoreSplitTests.t0
    /// Alice truly burns 10 % more than the model says, Bob 5 % less.
    static let aliceTrue = 1.10
    static let bobTrue = 0.95

    /// Alice's and Bob's model litres in period `index`: their shares change from tank to tank.
    static func modelLiters(_ index: Int) -> (alice: Double, bob: Double) {
        (8 + Double(index % 4) * 6, 26 - Double(index % 3) * 7)
    }

    /// One full-to-full period: Alice and Bob drive, then a full tank of what they truly burnt, at 2.00 a litre.
    @discardableResult
    static func period(_ store: TripStore, _ index: Int, alice: DriverID, bob: DriverID) throws -> BookChange {
        let start = Double(index * 10)
        let (a, b) = modelLiters(index)
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: start + 1, end: start + 2, liters: a, meters: 150_000)
        try TripStoreSplitTests.session(store, driver: bob, name: "Bob", start: start + 3, end: start + 4, liters: b, meters: 150_000)
        let pumped = aliceTrue * a + bobTrue * b
        let at = t0 + Int64((start + 5) * Double(hour))
        return try store.addRefuelShowingChange(RefuelInput(atUTCMs: at, liters: pumped, cost: MinorUnits(Int64((pumped * 200).rounded())))).change
    }

    @Test func driversWhoDifferAreLearntAndOpenBillsUseItButSettledOnesNeverMove() throws {
        let path = temporaryStorePath()
        let store = try TripStore(path: path)
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        let bob = try store.addDriver(name: "Bob", tags: [], beacons: [])
        try TripStoreSplitTests.baseline(store)
        for index in 0..<5 { try Self.period(store, index, alice: alice, bob: bob) }
        let early = try #require(try store.learnedConsumption())
        #expect(early.fit.outcome == .tooFewPeriods && early.fit.periodsUsed == 5 && early.fit.periodsNeeded == 8)
        // The family pays the first bills; they keep the split they were paid by.
        let settledIDs = Array(try store.splits().dropFirst().map(\.id).prefix(3))
        try store.settleRefuels(settledIDs, atUTCMs: Self.t0 + 50 * Self.hour)
        let settledBefore = try store.splits().filter { settledIDs.contains($0.id) }.map(\.shares)
        var adoptedBy: BookChange?
        var index = 5
        while index < 16 {
            let change = try Self.period(store, index, alice: alice, bob: bob)
            index += 1
            if adoptedBy == nil, try store.learnedConsumption()?.fit.isAdopted == true { adoptedBy = change }
        }
        let learned = try #require(try store.learnedConsumption())
        #expect(learned.fit.outcome == .adopted, "\(learned.fit)")
        #expect(learned.fit.periodsUsed == 16)
        #expect(learned.driverNames == [alice: "Alice", bob: "Bob"])
        let ratio = try #require(learned.fit.factors[alice]) / #require(learned.fit.factors[bob])
        #expect(abs(ratio - Self.aliceTrue / Self.bobTrue) < 0.05, "Alice over Bob \(ratio)")
        let learnedErrors = try #require(learned.fit.heldOutErrorLearned), oneFactor = try #require(learned.fit.heldOutErrorOneFactor)
        #expect(learnedErrors < oneFactor)

        // The adoption re-split the open bills before the new one, and said so.
        let adoption = try #require(adoptedBy)
        #expect(adoption.bills.count > 1, "only the new bill moved")
        #expect(adoption.bills.allSatisfy { !settledIDs.contains($0.refuelID) })
        // Settled bills never moved.
        #expect(try store.splits().filter { settledIDs.contains($0.id) }.map(\.shares) == settledBefore)

        // An open bill is split by each party's estimate times its factor: here, by what they truly burnt.
        let last = try #require(try store.splits().last)
        let (a, b) = Self.modelLiters(15)
        let aliceCost = try #require(last.shares.first { $0.driver == alice }).cost.value
        let bobCost = try #require(last.shares.first { $0.driver == bob }).cost.value
        let trueAlice = Double(last.refuel.cost.value) * Self.aliceTrue * a / (Self.aliceTrue * a + Self.bobTrue * b)
        let oneFactorAlice = Double(last.refuel.cost.value) * a / (a + b)
        // The ridge pulls toward the one factor, so not all the way; but most of it.
        #expect(abs(Double(aliceCost) - trueAlice) < abs(oneFactorAlice - trueAlice) / 3, "Alice \(aliceCost), truly \(trueAlice), one factor \(oneFactorAlice)")
        #expect(aliceCost + bobCost == last.refuel.cost.value)
        try TripStoreBookTests.expectBooksAddUp(store)

        // The history keeps every fit that changed, and reopening reads the same.
        let history = try store.consumptionFits()
        #expect(history.count >= 10 && history.first?.fit.outcome == .tooFewPeriods)
        #expect(history.map(\.atUTCMs) == history.map(\.atUTCMs).sorted())
        let reopened = try TripStore(path: path)
        #expect(try reopened.learnedConsumption() == learned)
        #expect(try Migrator(StoreSchema.migrations).applied(in: reopened.connection).last == StoreSchema.consumptionFits.name)

        // Removing the last full tank re-fits on the periods left, and the books still add up.
        try store.removeRefuel(id: last.id)
        #expect(try store.learnedConsumption()?.fit.periodsUsed == 15)
        try TripStoreBookTests.expectBooksAddUp(store)
    }

    @Test func aStoreWithoutFullTanksLearnsNothingAndKeepsNoFit() throws {
        let store = try TripStore(path: temporaryStorePath())
        let alice = try store.addDriver(name: "Alice", tags: [], beacons: [])
        try TripStoreSplitTests.session(store, driver: alice, name: "Alice", start: 0, end: 1, liters: 4)
        try store.addRefuel(RefuelInput(atUTCMs: Self.t0 + 2 * Self.hour, liters: 20, cost: MinorUnits(4_000), fullTank: false))
        #expect(try store.learnedConsumption() == nil)
        #expect(try store.consumptionFits().isEmpty)
    }
}
