import FairFuelCore
import FairFuelPull
import FairFuelReports
import Foundation
import Testing
import TestSupport

/// `split`, `summary` and `report --html` over two cars' pull directories (Fixtures/family/README.md):
/// golden outputs, one person per driver identity, and bills that still add up to the cent.
@Suite struct FamilyBooksTests {
    static let fixtures = PackagePaths.root + "/Tests/FairFuelPullTests/Fixtures/family"
    static let november = CalendarMonth(year: 2026, month: 11)!

    static func books() throws -> FamilyBooks {
        try FamilyBooks.load(directories: [fixtures + "/golf", fixtures + "/zoe"])
    }

    static func expectGolden(_ name: String, _ actual: String) throws {
        #expect(actual == (try Golden.expected(at: fixtures + "/expected/" + name, actual: actual)), "\(name) differs from its golden file")
    }

    @Test func splitMatchesItsGoldenFiles() throws {
        let books = try Self.books()
        for grouping in SplitText.Grouping.allCases {
            let name = grouping == .refuel ? "split" : "split-by-\(grouping.rawValue)"
            try Self.expectGolden(name + ".txt", books.splitText(by: grouping, json: false))
            try Self.expectGolden(name + ".json", books.splitText(by: grouping, json: true))
        }
    }

    @Test func summaryMatchesItsGoldenFiles() throws {
        let books = try Self.books()
        try Self.expectGolden("summary.txt", books.summaryText(nil, json: false))
        try Self.expectGolden("summary.json", books.summaryText(nil, json: true))
        try Self.expectGolden("summary-2026-11.txt", books.summaryText(Self.november, json: false))
    }

    @Test func reportMatchesItsGoldenFile() throws {
        let report = try Self.books().reportHTML(Self.november)
        try Self.expectGolden("report-2026-11.html", report.page)
        #expect(report.trips == 5, "December's trip is left out")
        #expect(report.page.components(separatedBy: "<h2>").count - 1 == 3, "the family, then one section per car")
        #expect(!report.page.contains("<script"))
    }

    @Test func familyViewMatchesItsGoldenFile() throws {
        try Self.expectGolden("family.txt", FamilyView(try Self.books()).table)
    }

    /// Anna is "Anni" in the Zoe, known there by the same driver URI: one person, one line, both cars' money.
    @Test func aDriverOfTwoCarsIsOnePerson() throws {
        let books = try Self.books()
        let summary = books.summary(nil)
        #expect(summary.drivers.map(\.driverName).sorted() == ["Anna", "Ben", "Cleo"])
        let anna = try #require(summary.drivers.first { $0.driverName == "Anna" })
        #expect(anna.trips == 4)
        #expect(anna.cost == MinorUnits(3331 + 1799 + 1573))
        #expect(abs(anna.distanceMeters - (21_406.3 + 12_000.5 + 25_000 + 18_000)) < 0.001)
        #expect(anna.ecoScore == nil, "pulls carry no rated consumption")
        let json = books.splitText(by: .driver, json: true)
        #expect(!json.contains("Anni"), "\(json)")
    }

    /// Each bill's shares sum to it in cents, and the per-person totals to all the bills.
    @Test func sharesStillSumToEveryBill() throws {
        let books = try Self.books()
        var bills: Int64 = 0
        for car in books.cars {
            for split in car.splits {
                #expect(split.shares.reduce(Int64(0)) { $0 + $1.cost.value } == split.refuel.cost.value, "\(car.label) bill \(split.id)")
                bills += split.refuel.cost.value
            }
        }
        #expect(bills == 7250 + 5491 + 1799 + 6300 + 3700)
        let summary = books.summary(nil)
        #expect(summary.billsTotal.value == bills)
        let people = summary.drivers.reduce(Int64(0)) { $0 + $1.cost.value }
        #expect(people + summary.untrackedCost.value + summary.beforeTrackingCost.value == bills)
    }
}
