import FairFuelCore
import FairFuelDomain
import FairFuelReports
import FairFuelStore
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

/// The summary, its JSON and the HTML report say which rule the period's bills were split by.
@Suite struct BillRuleSummaryTests {
    @Test func billsAreCountedPerRuleAndNamedInEveryView() throws {
        let t0 = ExportSample.t0
        let shares = [
            BillShare(refuelID: 1, refuelUTCMs: t0, driverName: "Alice", fuelLiters: 1.3, cost: MinorUnits(232), rule: .firstFill),
            BillShare(refuelID: 1, refuelUTCMs: t0, driverName: nil, fuelLiters: 38.5, cost: MinorUnits(7_017), beforeTracking: true,
                      rule: .firstFill),
            BillShare(refuelID: 2, refuelUTCMs: t0 + 1, driverName: "Alice", fuelLiters: 5, cost: MinorUnits(902), rule: .ordinary),
            // A pulled bill says no rule: it is in the bills, in no rule's count.
            BillShare(refuelID: 3, refuelUTCMs: t0 + 2, driverName: "Alice", fuelLiters: 1, cost: MinorUnits(180)),
        ]
        let summary = FamilySummary(month: nil, trips: [], shares: shares, fullFills: [], ratedLitersPer100km: 6.5)
        #expect(summary.billsByRule == [
            RuleTotal(rule: .ordinary, bills: 1, total: MinorUnits(902)), RuleTotal(rule: .firstFill, bills: 1, total: MinorUnits(7_249)),
        ])
        #expect(summary.beforeTrackingCost == MinorUnits(7_017))
        let text = SummaryText.text(summary, vehicle: "Golf", units: ExportSample.metric)
        #expect(text.contains("bills by rule: ordinary 1 (9.02 EUR), first fill-up 1 (72.49 EUR)"), "\(text)")
        let json = SummaryText.json(summary)
        #expect(json.contains(#""bills_by_rule":[{"rule":"ordinary","bills":1,"cost_cents":902},{"rule":"first_fill","bills":1,"cost_cents":7249}]"#), "\(json)")
        let page = HTMLReport.render(HTMLReport.Content(
            vehicleName: "Golf", units: ExportSample.metric, ratedLitersPer100km: 6.5, summary: summary, trips: [], trend: []))
        #expect(page.contains("bills by rule: ordinary 1 (9.02 EUR), first fill-up 1 (72.49 EUR)"))
    }
}
