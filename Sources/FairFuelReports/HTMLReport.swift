import FairFuelCore
import FairFuelParsers
import FairFuelStore

/// The family's month as one self-contained HTML page: inline CSS and SVG, no script, no
/// network, so it opens from a USB stick or a mail attachment the same as on the laptop.
public enum HTMLReport {
    /// What the page shows.
    public struct Content: Sendable {
        public var vehicleName: String
        public var units: DisplayUnits
        public var ratedLitersPer100km: Double
        public var summary: FamilySummary
        /// The period's trips, oldest first.
        public var trips: [TripRow]
        /// Full-to-full periods for the trend, oldest first (the last dozen are drawn).
        public var trend: [FullFillPeriod]

        public init(vehicleName: String, units: DisplayUnits, ratedLitersPer100km: Double, summary: FamilySummary,
                    trips: [TripRow], trend: [FullFillPeriod]) {
            self.vehicleName = vehicleName
            self.units = units
            self.ratedLitersPer100km = ratedLitersPer100km
            self.summary = summary
            self.trips = trips
            self.trend = trend
        }
    }

    /// Bar and line colours, one per driver in order (they repeat after eight).
    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    public static func render(_ content: Content) -> String {
        let period = content.summary.month.map { "\($0)" } ?? "all time"
        var html = head(title: "FairFuel: \(content.vehicleName), \(period)")
        html += "<p class=\"note\">Times in \(escape(content.units.timeZoneText)). Money in \(escape(content.units.currency)); distances in \(content.units.distanceUnit), "
        html += "fuel in \(content.units.volumeUnit). Rated consumption \(content.units.consumptionText(litersPer100km: content.ratedLitersPer100km)).</p>\n"
        html += summaryTable(content.summary, units: content.units)
        html += "<h2>Who pays what</h2>\n" + costChart(content.summary, units: content.units)
        html += "<h2>Consumption per full fill: estimated and real</h2>\n" + trendChart(content)
        html += "<h2>Trips</h2>\n" + tripsTable(content.trips, units: content.units)
        html += "</body>\n</html>\n"
        return html
    }

    /// The page's head, its style and its title as the first heading.
    static func head(title: String) -> String {
        """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; background: #fff; }
            h1 { font-size: 1.6em; border-bottom: 4px solid #1f77b4; padding-bottom: .2em; }
            h2 { font-size: 1.2em; margin-top: 2em; }
            table { border-collapse: collapse; width: 100%; font-size: .9em; }
            th, td { padding: .3em .6em; border-bottom: 1px solid #ddd; text-align: right; }
            th:first-child, td:first-child, .text { text-align: left; }
            thead th { background: #eef3f8; }
            .note { color: #666; font-size: .85em; }
            .score { font-weight: bold; }
            svg { display: block; margin: 1em 0; background: #fafafa; border: 1px solid #e4e4e4; }
            svg text { font-family: system-ui, sans-serif; font-size: 13px; fill: #222; }
            </style>
            </head>
            <body>
            <h1>\(escape(title))</h1>

            """
    }

    /// The drivers' table under a heading of `level` (h2, h3...), and the period's bills.
    static func summaryTable(_ summary: FamilySummary, units u: DisplayUnits, level: Int = 2) -> String {
        var html = "<h\(level)>Drivers</h\(level)>\n<table>\n<thead><tr><th>driver</th><th>trips</th><th>distance</th><th>time</th>"
        html += "<th>fuel</th><th>consumption</th><th>harsh / \(u.rateDistance)</th><th>idle</th><th>cost</th><th>eco score</th></tr></thead>\n<tbody>\n"
        for d in summary.drivers {
            html += "<tr><td>\(escape(d.driverName))</td><td>\(d.trips)</td><td>\(u.distanceText(meters: d.distanceMeters))</td>"
            html += "<td>\(DisplayUnits.durationText(milliseconds: d.durationMs))</td><td>\(u.volumeText(liters: d.fuelLiters))</td>"
            html += "<td>\(u.consumptionText(litersPer100km: d.litersPer100km))</td>"
            html += "<td>\(d.harshPer100km.map { DisplayUnits.fixed(u.per100(perHundredKilometers: $0), 1) } ?? "-")</td>"
            html += "<td>\(d.idleShare.map { DisplayUnits.fixed($0 * 100, 0) + " %" } ?? "-")</td>"
            html += "<td>\(u.moneyText(d.cost))</td><td class=\"score\">\(d.ecoScore.map(String.init) ?? "-")</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        html += "<p class=\"note\">Bills of the period: \(u.moneyWithCurrency(summary.billsTotal))"
        if summary.untrackedCost != .zero {
            html += "; untracked driving: \(u.moneyWithCurrency(summary.untrackedCost))"
        }
        if summary.beforeTrackingCost != .zero {
            html += "; before tracking (the first fill-up's remainder, fuel burnt before install): \(u.moneyWithCurrency(summary.beforeTrackingCost))"
        }
        if let rules = SummaryText.rulesText(summary, units: u) { html += "; bills by rule: \(escape(rules))" }
        for other in summary.otherCurrencyBills {
            let digits = VehicleProfile.minorDigits(ofCurrency: other.currency) ?? 2
            html += "; bills in \(escape(other.currency)), not added: \(MoneyText.format(other.total, minorDigits: digits)) \(escape(other.currency))"
        }
        html += ".</p>\n"
        return html
    }

    /// Horizontal bars, one per driver (and untracked), longest for the largest cost.
    static func costChart(_ summary: FamilySummary, units: DisplayUnits) -> String {
        var rows: [(String, MinorUnits)] = summary.drivers.map { ($0.driverName, $0.cost) }
        if summary.untrackedCost != .zero { rows.append(("(untracked)", summary.untrackedCost)) }
        guard !rows.isEmpty else { return "<p class=\"note\">No bills in this period.</p>\n" }
        let width = 720, labelWidth = 150, barRoom = 440, rowHeight = 34
        let height = rows.count * rowHeight + 20
        let largest = max(1, rows.map(\.1.value).max() ?? 1)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"cost per driver\">\n"
        for (index, row) in rows.enumerated() {
            let y = 10 + index * rowHeight
            let length = max(2, Int(Double(barRoom) * Double(row.1.value) / Double(largest)))
            let colour = row.0 == "(untracked)" ? "#999999" : palette[index % palette.count]
            svg += "<text x=\"10\" y=\"\(y + 21)\">\(escape(row.0))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 4)\" width=\"\(length)\" height=\"\(rowHeight - 10)\" fill=\"\(colour)\"/>"
            svg += "<text x=\"\(labelWidth + length + 8)\" y=\"\(y + 21)\">\(units.moneyWithCurrency(row.1))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// Two lines over the full-to-full periods: the model's estimate and the pump's truth.
    static func trendChart(_ content: Content) -> String {
        let chart = trend(content.trend.suffix(12), units: content.units, title: "consumption trend")
        guard !chart.isEmpty else { return "<p class=\"note\">No consumption trend yet: it needs two full fills.</p>\n" }
        return chart.svg()
    }

    /// The full-to-full periods' estimated and real consumption in the family's unit, labelled by the later fill's day.
    public static func trend<S: Sequence<FullFillPeriod>>(_ periods: S, units u: DisplayUnits, title: String) -> LineChart {
        let points = periods.compactMap { period -> (String, Double?, Double?)? in
            let real = period.realLitersPer100km.flatMap(u.consumption(litersPer100km:))
            let estimated = period.estimatedLitersPer100km.flatMap(u.consumption(litersPer100km:))
            guard real != nil || estimated != nil else { return nil }
            return (ISO8601.monthDay(UTCTimestamp(millisecondsSinceEpoch: period.toUTCMs).date), estimated, real)
        }
        return LineChart(
            title: title, unit: u.consumptionUnit, labels: points.map(\.0),
            series: [.init(name: "estimated", values: points.map(\.1)), .init(name: "real (pump)", values: points.map(\.2))])
    }

    static func tripsTable(_ trips: [TripRow], units u: DisplayUnits) -> String {
        guard !trips.isEmpty else { return "<p class=\"note\">No trips in this period.</p>\n" }
        var html = "<table>\n<thead><tr><th>start</th><th class=\"text\">driver</th><th>distance</th><th>time</th><th>idle</th>"
        html += "<th>fuel</th><th>harsh</th><th>top speed</th></tr></thead>\n<tbody>\n"
        for trip in trips {
            html += "<tr><td>\(trip.startUTCMs.map(u.minuteText(utcMs:)) ?? "?")</td><td class=\"text\">\(escape(trip.driverName))</td>"
            html += "<td>\(u.distanceText(meters: trip.distanceMeters))</td><td>\(DisplayUnits.durationText(milliseconds: trip.durationMs))</td>"
            let measured = trip.hasMotionFigures
            html += "<td>\(measured ? DisplayUnits.durationText(milliseconds: trip.idleMs) : "-")</td><td>\(u.volumeText(liters: trip.fuelLiters))</td>"
            html += "<td>\(measured ? String(trip.harshEvents) : "-")</td>"
            let top = DisplayUnits.fixed(u.speed(metersPerSecond: trip.maximumSpeedMetersPerSecond), 0) + " " + u.speedUnit
            html += "<td>\(measured ? top : "-")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func escape(_ text: String) -> String { GPXWriter.escape(text) }
}
