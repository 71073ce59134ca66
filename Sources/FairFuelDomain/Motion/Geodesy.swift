import FairFuelCore

import RealModule

/// Great-circle distances on a spherical Earth (haversine).
public enum Geodesy {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// Haversine distance between two positions in degrees.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Meters {
        let toRadians = Double.pi / 180
        let dPhi = (latitude2 - latitude1) * toRadians
        let dLambda = (longitude2 - longitude1) * toRadians
        let sinPhi = Double.sin(dPhi / 2)
        let sinLambda = Double.sin(dLambda / 2)
        let h = sinPhi * sinPhi + Double.cos(latitude1 * toRadians) * Double.cos(latitude2 * toRadians) * sinLambda * sinLambda
        return Meters(2 * earthRadiusMeters * Double.asin(min(1, h.squareRoot())))
    }
}
