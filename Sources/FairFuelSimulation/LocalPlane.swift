import RealModule

/// A local east/north plane in metres around an origin (equirectangular; good to a few
/// hundred kilometres, which is all a generated route needs).
struct LocalPlane: Sendable {
    static let metersPerDegree = 111_320.0
    let origin: GeoPoint
    let metersPerDegreeLongitude: Double

    init(origin: GeoPoint) {
        self.origin = origin
        metersPerDegreeLongitude = LocalPlane.metersPerDegree * max(0.01, Double.cos(origin.latitude * Double.pi / 180))
    }

    func point(east: Double, north: Double) -> GeoPoint {
        GeoPoint(
            latitude: origin.latitude + north / LocalPlane.metersPerDegree,
            longitude: origin.longitude + east / metersPerDegreeLongitude)
    }

    func offset(of point: GeoPoint) -> (east: Double, north: Double) {
        ((point.longitude - origin.longitude) * metersPerDegreeLongitude,
         (point.latitude - origin.latitude) * LocalPlane.metersPerDegree)
    }

    /// Metres between two points (flat-earth approximation around the first one).
    static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let plane = LocalPlane(origin: a)
        let (east, north) = plane.offset(of: b)
        return (east * east + north * north).squareRoot()
    }

    /// Degrees from true north, 0..<360, of the direction (east, north).
    static func bearing(east: Double, north: Double) -> Double {
        var degrees = Double.atan2(y: east, x: north) * 180 / Double.pi
        if degrees < 0 { degrees += 360 }
        return degrees
    }
}
