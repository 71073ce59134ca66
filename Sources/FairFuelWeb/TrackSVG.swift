import FairFuelReports
import RealModule

/// A trip drawn on the server: its track from the stored positions, and its speed over time, as
/// inline SVG with a text alternative (no map tiles, no script). At most `maximumPoints` are drawn.
enum TrackSVG {
    static let maximumPoints = 600

    /// Every n-th point, the last kept, so that a long trip draws as many points as a short one.
    static func thinned(_ points: [TrackPoint]) -> [TrackPoint] {
        guard points.count > maximumPoints else { return points }
        let step = (points.count + maximumPoints - 1) / maximumPoints
        var kept = stride(from: 0, to: points.count, by: step).map { points[$0] }
        if let last = points.last, kept.last != last { kept.append(last) }
        return kept
    }

    /// The track, north up, scaled to fit (an equirectangular projection: a trip is a few km wide).
    static func track(_ points: [TrackPoint], description: String) -> String {
        let points = thinned(points)
        guard points.count >= 2 else { return "<p class=\"muted\">No positions were stored for this trip.</p>" }
        let middle = (points.map(\.latitude).min()! + points.map(\.latitude).max()!) / 2
        let scaleX = Double.cos(middle * .pi / 180)
        let xs = points.map { $0.longitude * scaleX }, ys = points.map { -$0.latitude }
        let (minX, maxX, minY, maxY) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        let span = max(maxX - minX, maxY - minY, 1e-6)
        let size = 300.0, margin = 10.0
        func x(_ value: Double) -> String { DisplayUnits.fixed(margin + (value - minX) / span * size, 1) }
        func y(_ value: Double) -> String { DisplayUnits.fixed(margin + (value - minY) / span * size, 1) }
        let width = DisplayUnits.fixed((maxX - minX) / span * size + 2 * margin, 0)
        let height = DisplayUnits.fixed((maxY - minY) / span * size + 2 * margin, 0)
        let line = zip(xs, ys).map { "\(x($0)),\(y($1))" }.joined(separator: " ")
        return """
            <svg viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="track-title"><title id="track-title">\(HTMLPage.h(description))</title>
            <polyline points="\(line)" fill="none" stroke="#124e78" stroke-width="2.5" stroke-linejoin="round"/>
            <circle cx="\(x(xs[0]))" cy="\(y(ys[0]))" r="5" fill="#2e7d32"/><circle cx="\(x(xs.last!))" cy="\(y(ys.last!))" r="5" fill="#a4262c"/></svg>
            """
    }

    /// Speed against time, with the top speed marked on the axis.
    static func speedProfile(_ points: [TrackPoint], units: DisplayUnits) -> String {
        let points = thinned(points)
        guard points.count >= 2, let first = points.first?.utcMs, let last = points.last?.utcMs, last > first else { return "" }
        let top = max(points.map { units.speed(metersPerSecond: $0.speedMetersPerSecond) }.max() ?? 0, 1)
        let width = 320.0, height = 120.0, left = 30.0
        let line = points.map { point in
            let x = left + Double(point.utcMs - first) / Double(last - first) * (width - left)
            let y = height - units.speed(metersPerSecond: point.speedMetersPerSecond) / top * (height - 10)
            return DisplayUnits.fixed(x, 1) + "," + DisplayUnits.fixed(y, 1)
        }.joined(separator: " ")
        let label = "Speed over \((last - first) / 60_000) min, up to \(DisplayUnits.fixed(top, 0)) \(units.speedUnit)"
        return """
            <svg viewBox="0 0 \(Int(width)) \(Int(height) + 4)" role="img" aria-labelledby="speed-title"><title id="speed-title">\(HTMLPage.h(label))</title>
            <line x1="\(Int(left))" y1="\(Int(height))" x2="\(Int(width))" y2="\(Int(height))" stroke="#b8c0c8"/>
            <text x="2" y="14" font-size="11" fill="#5b6670">\(DisplayUnits.fixed(top, 0))</text><text x="2" y="\(Int(height))" font-size="11" fill="#5b6670">0</text>
            <polyline points="\(line)" fill="none" stroke="#a4262c" stroke-width="1.5"/></svg>
            <p class="muted">\(HTMLPage.h(label))</p>
            """
    }
}
