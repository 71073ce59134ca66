import FairFuelCore
import FairFuelDomain
import Testing
import TestSupport

@Suite struct CostSplitterTests {
    static let a = DriverID(1), b = DriverID(2), c = DriverID(3)

    @Test func proportionalToFuel() {
        let shares = CostSplitter.split(
            bill: MinorUnits(10_000),
            fuel: [FuelShare(driver: Self.a, fuel: Liters(30)), FuelShare(driver: Self.b, fuel: Liters(10))],
            untracked: .owner)
        #expect(shares.map(\.cost) == [MinorUnits(7_500), MinorUnits(2_500)])
    }

    @Test func largestRemainderWithDeterministicTies() {
        // Three equal shares of 100: 33.33 each; the leftover unit goes to the lowest id.
        let shares = CostSplitter.split(
            bill: MinorUnits(100),
            fuel: [FuelShare(driver: Self.c, fuel: Liters(1)), FuelShare(driver: Self.a, fuel: Liters(1)), FuelShare(driver: Self.b, fuel: Liters(1))],
            untracked: .owner)
        #expect(shares.map(\.driver) == [Self.a, Self.b, Self.c])
        #expect(shares.map(\.cost.value) == [34, 33, 33])
    }

    @Test func untrackedLeftToTheOwner() {
        let shares = CostSplitter.split(
            bill: MinorUnits(9_000),
            fuel: [FuelShare(driver: nil, fuel: Liters(10)), FuelShare(driver: Self.a, fuel: Liters(20))],
            untracked: .owner)
        #expect(shares == [
            CostShare(driver: Self.a, fuel: Liters(20), cost: MinorUnits(6_000)),
            CostShare(driver: nil, fuel: Liters(10), cost: MinorUnits(3_000)),
        ])
    }

    @Test func untrackedProRata() {
        let shares = CostSplitter.split(
            bill: MinorUnits(9_000),
            fuel: [FuelShare(driver: nil, fuel: Liters(10)), FuelShare(driver: Self.a, fuel: Liters(20)), FuelShare(driver: Self.b, fuel: Liters(10))],
            untracked: .proRata)
        #expect(shares.map(\.cost.value) == [6_000, 3_000, 0])
        #expect(shares.last?.driver == nil)
    }

    @Test func noFuelAtAllGoesToTheOwner() {
        let shares = CostSplitter.split(bill: MinorUnits(5_000), fuel: [], untracked: .proRata)
        #expect(shares == [CostShare(driver: nil, fuel: .zero, cost: MinorUnits(5_000))])
        let onlyUntracked = CostSplitter.split(
            bill: MinorUnits(5_000), fuel: [FuelShare(driver: nil, fuel: Liters(3))], untracked: .proRata)
        #expect(onlyUntracked.map(\.cost.value) == [5_000])
    }

    /// Property: shares always sum exactly to the bill, never go negative, and follow fuel order.
    @Test func sharesAlwaysSumToTheBill() {
        var generator = SeededGenerator(seed: 77)
        for _ in 0..<5_000 {
            let count = Int.random(in: 1...17, using: &generator)
            let fuel = (0..<count).map { index in
                FuelShare(
                    driver: index == 16 ? nil : DriverID(Int64(index + 1)),
                    fuel: Liters(Bool.random(using: &generator) ? 0 : Double.random(in: 0...80, using: &generator)))
            }
            let bill = MinorUnits(Int64.random(in: 0...500_000, using: &generator))
            let policy: UntrackedPolicy = Bool.random(using: &generator) ? .owner : .proRata
            let shares = CostSplitter.split(bill: bill, fuel: fuel, untracked: policy)
            #expect(shares.reduce(Int64(0)) { $0 + $1.cost.value } == bill.value)
            #expect(shares.allSatisfy { $0.cost.value >= 0 })
            let payers = shares.filter { $0.driver != nil || policy == .owner }
            for x in payers { for y in payers where x.fuel.value > y.fuel.value + 1e-3 {
                #expect(x.cost.value >= y.cost.value)
            } }
        }
    }
}
