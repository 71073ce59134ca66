import FairFuelReports
import FairFuelStore
@testable import FairFuelWeb
import Foundation
import Testing
import TestSupport

/// The charts' text alternatives hold the numbers the CLI prints for the same store.
@Suite struct WebChartsTests {
    /// The table's rows: label, then one cell per series.
    static func rows(_ table: String) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for row in table.components(separatedBy: "<tr><th>").dropFirst() {
            let label = String(row.prefix { $0 != "<" })
            if label.isEmpty { continue }  // the head's corner cell
            rows[label] = row.components(separatedBy: "<td class=\"n\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
        }
        return rows
    }

    static func book(_ db: String) throws -> StoreBook {
        try StoreBook(try TripStore(path: db, readOnly: true), units: DisplayUnits(units: "metric", currency: "EUR", currencyMinorDigits: 2))
    }

    @Test func eachChartsNumbersAreTheCLIs() throws {
        let db = try WebRig.store()
        // Some of the untracked driving given to Cara: a month of hers to draw.
        #expect(try WebRig.cli(["trips", "assign", "u1", "Cara", "--db", db]).exitCode == 0)
        let charts = WebCharts.all(try Self.book(db))
        #expect(charts.count == 3)

        let consumption = charts[0]
        #expect(!consumption.isEmpty)
        let perMonth = Self.rows(consumption.table())
        var compared = 0
        for month in perMonth.keys {
            let summary = try WebRig.cliJSON(["summary", "--month", month, "--json"], db: db) as! [String: Any]
            for driver in summary["drivers"] as! [[String: Any]] {
                let column = try #require(consumption.series.firstIndex { $0.name == driver["driver"] as? String })
                let expected = (driver["l_per_100km"] as? Double).map { DisplayUnits.fixed($0, 2) } ?? "-"
                #expect(perMonth[month]?[column] == expected, "\(month) \(driver)")
                compared += 1
            }
        }
        #expect(compared >= 2)

        let trend = Self.rows(charts[1].table())
        let fills = (try WebRig.cliJSON(["summary", "--json"], db: db) as! [String: Any])["full_fills"] as! [[String: Any]]
        #expect(trend.count == fills.filter { !($0["real_l_per_100km"] is NSNull) || !($0["estimated_l_per_100km"] is NSNull) }.count)
        #expect(!trend.isEmpty)
        for fill in fills {
            guard let real = fill["real_l_per_100km"] as? Double else { continue }
            #expect(trend.values.contains { $0[1] == DisplayUnits.fixed(real, 1) }, "\(fill)")
        }

        let prices = charts[2]
        let refuels = try WebRig.cliJSON(["refuel", "list", "--json"], db: db) as! [[String: Any]]
        let values = prices.series[0].values
        #expect(values.count == refuels.count && refuels.count == 3)
        let cells = Self.rows(prices.table()).values.map { $0[0] }
        for (refuel, value) in zip(refuels, values) {
            let expected = Double(refuel["cost_cents"] as! Int) / 100 / (refuel["liters"] as! Double)
            #expect(prices.text(value) == DisplayUnits.fixed(expected, 3) && cells.contains(DisplayUnits.fixed(expected, 3)))
        }
        #expect(prices.svg().contains("aria-label=\"Price per L at each refuel\""))
    }

    @Test func aChartEscapesItsNamesAndShowsAGapAsADash() {
        let chart = LineChart(
            title: "a <b> & c", unit: "L/100 km", labels: ["2026-10", "2026-11"],
            series: [.init(name: "<script>", values: [5.25, nil]), .init(name: "Bob", values: [nil, 7])], decimals: 2)
        let svg = chart.svg(), table = chart.table()
        #expect(!svg.contains("<script>") && !table.contains("<script>") && table.contains("&lt;script&gt;"))
        #expect(Self.rows(table) == ["2026-10": ["5.25", "-"], "2026-11": ["-", "7.00"]])
        // One point each: circles, no line.
        #expect(svg.components(separatedBy: "<circle").count == 3 && !svg.contains("<polyline"))
        #expect(LineChart(title: "t", unit: "u", labels: ["x"], series: [.init(name: "s", values: [nil])]).isEmpty)
    }

    /// The polylines of an SVG chart: each one's stroke width, whether it is dashed, and its point count.
    static func polylines(_ svg: String) -> [(width: Int, dashed: Bool, points: Int)] {
        svg.components(separatedBy: "<polyline ").dropFirst().map { element in
            let tag = String(element.prefix { $0 != ">" })
            func attribute(_ name: String) -> String? {
                tag.components(separatedBy: " \(name)=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
                    ?? (tag.hasPrefix("\(name)=\"") ? String(tag.dropFirst(name.count + 2).prefix { $0 != "\"" }) : nil)
            }
            return (Int(attribute("stroke-width") ?? "") ?? 0, attribute("stroke-dasharray") != nil,
                    attribute("points")?.split(separator: " ").count ?? 0)
        }
    }

    /// The estimate and the pump agree to the litre when the calibration is right (the demo's week):
    /// the two lines then lie on one another, and each must still be seen, not the last drawn alone.
    @Test func coincidingEstimatedAndRealLinesAreBothDrawnAndBothVisible() {
        let day: Int64 = 86_400_000, start: Int64 = 1_772_496_000_000
        let periods = [(5.78, 5.776, 57_723.0), (2.96, 2.963, 31_919.0), (4.1, 4.1, 41_000.0)].enumerated().map { index, figures in
            FullFillPeriod(
                fromUTCMs: start + Int64(index) * day, toUTCMs: start + Int64(index + 1) * day, pumpedLiters: figures.0,
                estimatedLiters: figures.1, trackedMeters: figures.2, odometerKilometers: nil)
        }
        let chart = HTMLReport.trend(periods, units: DisplayUnits(units: "metric", currency: "EUR", currencyMinorDigits: 2), title: "t")
        #expect(chart.series.map(\.name) == ["estimated", "real (pump)"])
        let lines = Self.polylines(chart.svg())
        #expect(lines.map(\.points) == [3, 3], "one line of three points per named series: \(lines)")
        // Each later line narrower and dashed over the one before: the one under it shows at its sides and through its gaps.
        #expect(lines.count == 2 && lines[1].width < lines[0].width && lines[1].dashed && !lines[0].dashed, "\(lines)")
        let table = Self.rows(chart.table())
        #expect(table.count == 3 && table.values.allSatisfy { $0[0] == $0[1] }, "the numbers agree: \(table)")
    }
}
