import FairFuelCore
import RealModule

/// Chooses which points of a track retention keeps.
///
/// Whatever the level, the first and last points are kept, and so are the two points
/// around every refuel moment inside the track: the fuel and distance at those moments
/// (what splits and calibration read) stay exactly what they were, so recomputing the
/// splits after thinning gives the same shares.
enum TrackSimplifier {
    /// Douglas–Peucker within `toleranceMeters` (on a local flat projection), no gap longer
    /// than `maximumGapMs`, plus the anchors. `points` must be in time order.
    static func simplified(_ points: [StoredTripPoint], toleranceMeters: Double, maximumGapMs: Int64, anchorTimes: [Int64]) -> [StoredTripPoint] {
        guard points.count > 2 else { return points }
        var keep = anchors(points, anchorTimes: anchorTimes)
        let reference = points[0].latitude * .pi / 180
        let metersPerDegreeLatitude = 111_320.0
        let metersPerDegreeLongitude = 111_320.0 * Double.cos(reference)
        func xy(_ point: StoredTripPoint) -> (Double, Double) {
            (point.longitude * metersPerDegreeLongitude, point.latitude * metersPerDegreeLatitude)
        }
        var stack: [(Int, Int)] = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            let (ax, ay) = xy(points[first])
            let (bx, by) = xy(points[last])
            let dx = bx - ax
            let dy = by - ay
            let lengthSquared = dx * dx + dy * dy
            var farthest = first + 1
            var farthestDistance = -1.0
            for index in (first + 1)..<last {
                let (px, py) = xy(points[index])
                var distance: Double
                if lengthSquared == 0 {
                    distance = ((px - ax) * (px - ax) + (py - ay) * (py - ay)).squareRoot()
                } else {
                    let t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared))
                    let cx = ax + t * dx - px
                    let cy = ay + t * dy - py
                    distance = (cx * cx + cy * cy).squareRoot()
                }
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            let tooLong = points[last].utcMs - points[first].utcMs > maximumGapMs
            guard farthestDistance > toleranceMeters || tooLong else { continue }
            let split = farthestDistance > toleranceMeters ? farthest : (first + last) / 2
            keep[split] = true
            stack.append((first, split))
            stack.append((split, last))
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// Only the first and last points and those around refuel moments.
    static func anchorsOnly(_ points: [StoredTripPoint], anchorTimes: [Int64]) -> [StoredTripPoint] {
        let keep = anchors(points, anchorTimes: anchorTimes)
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// Flags of the points every level keeps.
    private static func anchors(_ points: [StoredTripPoint], anchorTimes: [Int64]) -> [Bool] {
        var keep = [Bool](repeating: false, count: points.count)
        guard !points.isEmpty else { return keep }
        keep[0] = true
        keep[points.count - 1] = true
        for time in anchorTimes {
            // The last point at or before `time`, and the first at or after it.
            var low = 0
            var high = points.count
            while low < high {
                let middle = (low + high) / 2
                if points[middle].utcMs < time { low = middle + 1 } else { high = middle }
            }
            if low < points.count { keep[low] = true }
            if low > 0 { keep[low - 1] = true }
            if low < points.count, points[low].utcMs == time, low + 1 < points.count { keep[low + 1] = true }
        }
        return keep
    }
}
