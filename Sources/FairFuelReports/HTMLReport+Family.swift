import FairFuelCore

/// Several cars' month as one page: the family's totals per driver first, then a section per car
/// with its own drivers, bills and trips, each in the car's own units.
extension HTMLReport {
    public struct FamilyContent: Sendable {
        public struct Car: Sendable {
            public var label: String
            public var units: DisplayUnits
            /// The car's own figures for the period.
            public var summary: FamilySummary
            /// The car's trips of the period, oldest first.
            public var trips: [TripRow]

            public init(label: String, units: DisplayUnits, summary: FamilySummary, trips: [TripRow]) {
                self.label = label
                self.units = units
                self.summary = summary
                self.trips = trips
            }
        }

        /// The family's units and currency (the first car's).
        public var units: DisplayUnits
        /// Every car together, one line per person.
        public var summary: FamilySummary
        public var cars: [Car]

        public init(units: DisplayUnits, summary: FamilySummary, cars: [Car]) {
            self.units = units
            self.summary = summary
            self.cars = cars
        }
    }

    public static func render(family content: FamilyContent) -> String {
        let period = content.summary.month.map { "\($0)" } ?? "all time"
        var html = head(title: "FairFuel: " + content.cars.map(\.label).joined(separator: " + ") + ", \(period)")
        html += "<p class=\"note\">Times in \(escape(content.units.timeZoneText)). The family's totals in \(escape(content.units.currency)), \(content.units.distanceUnit) "
        html += "and \(content.units.volumeUnit); each car in its own units. The consumption trend and eco scores need each car's "
        html += "own store (<code>fairfuel report --db</code>): pulls carry neither fuel traces nor rated consumption.</p>\n"
        html += "<h2>Family</h2>\n" + summaryTable(content.summary, units: content.units, level: 3)
        html += "<h3>Who pays what</h3>\n" + costChart(content.summary, units: content.units)
        for car in content.cars {
            html += "<h2>\(escape(car.label))</h2>\n" + summaryTable(car.summary, units: car.units, level: 3)
            html += "<h3>Who pays what</h3>\n" + costChart(car.summary, units: car.units)
            html += "<h3>Trips</h3>\n" + tripsTable(car.trips, units: car.units)
        }
        html += "</body>\n</html>\n"
        return html
    }
}
