import FairFuelCore

/// A line chart drawn as SVG (no script, no external asset) with its numbers as a table: the text
/// alternative a screen reader reads and a person can copy. The monthly report and the family's web
/// pages draw their charts with it.
public struct LineChart: Sendable, Equatable {
    public struct Series: Sendable, Equatable {
        public var name: String
        /// One value per label; nil where there is none (a gap in the line, "-" in the table).
        public var values: [Double?]

        public init(name: String, values: [Double?]) {
            self.name = name
            self.values = values
        }
    }

    /// What is drawn, for the image's label and the table's caption.
    public var title: String
    /// The values' unit (`L/100 km`, `EUR/L`), under the chart and in the table's head.
    public var unit: String
    /// The x axis, oldest first.
    public var labels: [String]
    public var series: [Series]
    /// Decimals of the values in the table and on the axis.
    public var decimals: Int

    /// One colour per series, in turn (distinct for the colour-blind: blue, red, green, orange, purple, brown).
    static let colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]

    public init(title: String, unit: String, labels: [String], series: [Series], decimals: Int = 1) {
        self.title = title
        self.unit = unit
        self.labels = labels
        self.series = series
        self.decimals = decimals
    }

    /// Nothing to draw: no label, or not one value in any series.
    public var isEmpty: Bool { labels.isEmpty || !series.contains { $0.values.contains { $0 != nil } } }

    /// The value as the table and the axis show it.
    public func text(_ value: Double?) -> String { value.map { DisplayUnits.fixed($0, decimals) } ?? "-" }

    /// The chart (720 x 300, scaled to its box by CSS), labelled with its title.
    public func svg() -> String {
        let width = 720, height = 300, left = 60, right = 20, top = 20, bottom = 50
        let values = series.flatMap { $0.values.compactMap { $0 } }
        let low = max(0, (values.min() ?? 0) * 0.8), high = max(low + 1, (values.max() ?? 1) * 1.15)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ index: Int) -> Int { labels.count <= 1 ? left + plotWidth / 2 : left + plotWidth * index / (labels.count - 1) }
        func y(_ value: Double) -> Int { top + Int(Double(plotHeight) * (1 - (value - low) / (high - low))) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
            + "role=\"img\" aria-label=\"\(GPXWriter.escape(title))\">\n"
        svg += "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(top + plotHeight)\" stroke=\"#444\"/>"
        svg += "<line x1=\"\(left)\" y1=\"\(top + plotHeight)\" x2=\"\(left + plotWidth)\" y2=\"\(top + plotHeight)\" stroke=\"#444\"/>\n"
        for step in 0...4 {
            let value = low + (high - low) * Double(step) / 4
            svg += "<line x1=\"\(left)\" y1=\"\(y(value))\" x2=\"\(left + plotWidth)\" y2=\"\(y(value))\" stroke=\"#e0e0e0\"/>"
            svg += "<text x=\"\(left - 8)\" y=\"\(y(value) + 4)\" text-anchor=\"end\">\(DisplayUnits.fixed(value, 1))</text>\n"
        }
        // At most 12 labels under the axis, evenly spread: more would overlap.
        let every = max(1, (labels.count + 11) / 12)
        for (index, label) in labels.enumerated() where index % every == 0 {
            svg += "<text x=\"\(x(index))\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\">\(GPXWriter.escape(label))</text>\n"
        }
        // The legend under the axis: 140 px a series, closer when there are more than four.
        let spacing = series.count <= 4 ? 140 : plotWidth / series.count
        for (number, line) in series.enumerated() {
            let legendX = left + 10 + spacing * number
            let colour = Self.colours[number % Self.colours.count]
            let points = line.values.prefix(labels.count).enumerated().compactMap { index, value in value.map { (x(index), y($0)) } }
            let look = Self.stroke(number, of: series.count)
            if points.count >= 2 {
                svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(look.width)\"\(look.dashed ? " stroke-dasharray=\"12 8\"" : "") "
                    + "points=\"\(points.map { "\($0.0),\($0.1)" }.joined(separator: " "))\"/>\n"
            }
            for point in points { svg += "<circle cx=\"\(point.0)\" cy=\"\(point.1)\" r=\"\(look.radius)\" fill=\"\(colour)\"/>" }
            svg += "\n<rect x=\"\(legendX)\" y=\"\(height - 22)\" width=\"14\" height=\"14\" fill=\"\(colour)\"/>"
            svg += "<text x=\"\(legendX + 20)\" y=\"\(height - 10)\">\(GPXWriter.escape(line.name))</text>\n"
        }
        let unitX = series.count <= 2 ? left + 320 : min(width - 70, left + 10 + spacing * series.count)
        svg += "<text x=\"\(unitX)\" y=\"\(height - 10)\">\(GPXWriter.escape(unit))</text>\n"
        return svg + "</svg>\n"
    }

    /// How series `number` of `count` is drawn: each later one narrower, with smaller points, and dashed
    /// over the ones before, so that lines with the same values (an estimate the pump confirmed) all
    /// stay visible instead of the last drawn hiding the others.
    static func stroke(_ number: Int, of count: Int) -> (width: Int, radius: Int, dashed: Bool) {
        let below = min(count - 1 - number, 3)
        // Steps of 3 px: at a phone's width the chart is drawn at less than half size.
        return (3 + 3 * below, 4 + 3 * below, number > 0)
    }

    /// The numbers drawn, one row per label and one column per series: the chart's text alternative.
    public func table() -> String {
        var html = "<table class=\"chart-data\"><caption>\(GPXWriter.escape(title)) (\(GPXWriter.escape(unit)))</caption>"
        html += "<thead><tr><th></th>" + series.map { "<th class=\"n\">\(GPXWriter.escape($0.name))</th>" }.joined() + "</tr></thead><tbody>"
        for (index, label) in labels.enumerated() {
            html += "<tr><th>\(GPXWriter.escape(label))</th>"
            html += series.map { "<td class=\"n\">\(text(index < $0.values.count ? $0.values[index] : nil))</td>" }.joined() + "</tr>"
        }
        return html + "</tbody></table>"
    }
}
