import FairFuelCore
import FairFuelDomain
import Testing

/// The first bill: estimates at the bill's price per litre, the rest before tracking; estimates
/// above the pump scale down together, and the shares always sum exactly to the bill.
@Suite struct FirstFillSplitTests {
    static let a = DriverID(1), b = DriverID(2)

    @Test func eachPartyPaysTheirEstimateAtThePricePerLitre() {
        // 24.01 L for 21.54: 0.8971 a litre; 23.59 L estimated of it (the month the family tried).
        let split = FirstFillSplit(
            bill: MinorUnits(2_154), pumped: Liters(24.01),
            fuel: [FuelShare(driver: Self.a, fuel: Liters(15)), FuelShare(driver: Self.b, fuel: Liters(8.09)),
                   FuelShare(driver: nil, fuel: Liters(0.5))],
            untracked: .owner)
        #expect(split.shares.map(\.driver) == [Self.a, Self.b, nil])
        // 21.54 x 23.59 / 24.01 = 21.16 to the parties, 15 : 8.09 : 0.5 of it (largest remainder).
        #expect(split.shares.map(\.cost.value) == [1_345, 726, 45])
        #expect(split.beforeTrackingCost.value == 38)
        #expect(abs(split.beforeTrackingFuel.value - 0.42) < 1e-9)
        #expect(split.shares.reduce(0) { $0 + $1.cost.value } + split.beforeTrackingCost.value == 2_154)
        #expect(split.carried.isEmpty)
    }

    @Test func estimatesAboveThePumpScaleDownAndCarryTheRest() {
        let split = FirstFillSplit(
            bill: MinorUnits(1_000), pumped: Liters(6),
            fuel: [FuelShare(driver: Self.a, fuel: Liters(8)), FuelShare(driver: Self.b, fuel: Liters(4))], untracked: .owner)
        #expect(split.shares.map(\.cost.value) == [667, 333])
        #expect(split.beforeTrackingCost == .zero && split.beforeTrackingFuel == .zero)
        #expect(split.shares.map(\.fuel.value) == [4, 2])
        #expect(split.carried == [FuelShare(driver: Self.a, fuel: Liters(4)), FuelShare(driver: Self.b, fuel: Liters(2))])
    }

    @Test func noDrivingIsAllBeforeTrackingAndProRataUntrackedGoesToTheDrivers() {
        let none = FirstFillSplit(bill: MinorUnits(7_249), pumped: Liters(41.2), fuel: [], untracked: .owner)
        #expect(none.shares.isEmpty && none.beforeTrackingCost.value == 7_249 && none.beforeTrackingFuel.value == 41.2)
        // Pro rata: the untracked litre's cost falls to the driver, as on any bill.
        let proRata = FirstFillSplit(
            bill: MinorUnits(2_000), pumped: Liters(10),
            fuel: [FuelShare(driver: Self.a, fuel: Liters(3)), FuelShare(driver: nil, fuel: Liters(1))], untracked: .proRata)
        #expect(proRata.shares.map(\.cost.value) == [800, 0])
        #expect(proRata.beforeTrackingCost.value == 1_200)
    }

    @Test func theSharesAlwaysSumToTheBillAndChargeNoMoreLitresThanPumped() {
        for bill in stride(from: Int64(0), through: 9_973, by: 113) {
            for pumped in [0.4, 3.5, 24.01, 41.2] {
                for estimate in [0.0, 0.35, 3.5, 12.5, 60] {
                    let split = FirstFillSplit(
                        bill: MinorUnits(bill), pumped: Liters(pumped),
                        fuel: [FuelShare(driver: Self.a, fuel: Liters(estimate * 0.7)), FuelShare(driver: Self.b, fuel: Liters(estimate * 0.2)),
                               FuelShare(driver: nil, fuel: Liters(estimate * 0.1))],
                        untracked: .owner)
                    let charged = split.shares.reduce(0.0) { $0 + $1.fuel.value }
                    #expect(split.shares.reduce(0) { $0 + $1.cost.value } + split.beforeTrackingCost.value == bill)
                    #expect(charged <= pumped + 1e-9 && abs(charged + split.beforeTrackingFuel.value - max(pumped, charged)) < 1e-9)
                    // Each litre charged is charged at no more than the bill's price per litre (a cent of rounding per party).
                    for share in split.shares {
                        #expect(Double(share.cost.value) <= share.fuel.value / pumped * Double(bill) + 1)
                    }
                }
            }
        }
    }
}
