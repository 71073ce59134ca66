import FairFuelCore
import FairFuelDomain
import FairFuelReports
import Testing
import TestSupport

@Suite struct FamilySummaryTests {
    @Test func aMonthTakesItsTripsBillsAndFullFills() throws {
        let summary = ExportSample.summary(ExportSample.november)
        #expect(summary.drivers.map(\.driverName) == ["Bob \"the builder\", Jr.", "Alice"])
        let alice = try #require(summary.drivers.last)
        #expect(alice.trips == 1)
        #expect(alice.distanceMeters == 18_400)
        #expect(alice.cost == MinorUnits(1_201))
        #expect(alice.harshEvents == 1)
        #expect(summary.untrackedCost == MinorUnits(496))
        #expect(summary.billsTotal == MinorUnits(6_531))
        #expect(summary.fullFills.count == 1)
        let all = ExportSample.summary(nil)
        #expect(all.drivers.first { $0.driverName == "Alice" }?.trips == 2)
        #expect(all.billsTotal == MinorUnits(12_831))
        #expect(all.fullFills.count == 3)
    }

    @Test func aggregatedSharesStillSumToTheBills() {
        var random = SeededGenerator(seed: 42)
        for _ in 0..<200 {
            var shares: [BillShare] = []
            var bills: Int64 = 0
            for refuel in 0..<Int.random(in: 1...12, using: &random) {
                let bill = MinorUnits(Int64.random(in: 0...20_000, using: &random))
                bills += bill.value
                let at = ExportSample.t0 + Int64(refuel) * 9 * 86_400_000
                let fuel = (1...Int.random(in: 1...4, using: &random)).map { driver in
                    FuelShare(driver: driver == 4 ? nil : DriverID(Int64(driver)), fuel: Liters(Double.random(in: 0...9, using: &random)))
                }
                for share in CostSplitter.split(bill: bill, fuel: fuel, untracked: .owner) {
                    shares.append(BillShare(refuelID: Int64(refuel), refuelUTCMs: at, driverName: share.driver.map { "D\($0.rawValue)" },
                                            fuelLiters: share.fuel.value, cost: share.cost))
                }
            }
            #expect(SplitTotals.byDriver(shares).reduce(0) { $0 + $1.cost.value } == bills)
            #expect(SplitTotals.byMonth(shares).flatMap(\.totals).reduce(0) { $0 + $1.cost.value } == bills)
            let months = SplitTotals.byMonth(shares).map(\.month)
            #expect(months == months.sorted())
        }
    }

    @Test func driverTotalsPutUntrackedLast() {
        let totals = SplitTotals.byDriver(ExportSample.shares)
        #expect(totals.map(\.driverName) == ["Alice", "Bob \"the builder\", Jr.", nil])
        #expect(totals.map(\.cost.value) == [7_501, 4_834, 496])
        #expect(totals.first?.refuels == 3)
    }
}
