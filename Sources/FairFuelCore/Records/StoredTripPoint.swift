/// A trip point ready to store, stamped in UTC.
public struct StoredTripPoint: Sendable, Equatable {
    public var session: SessionID
    public var utcMs: Int64
    public var latitude: Double
    public var longitude: Double
    public var speedMetersPerSecond: Double
    /// Running totals within the session.
    public var distanceMeters: Double
    public var fuelLiters: Double

    public init(session: SessionID, utcMs: Int64, latitude: Double, longitude: Double, speedMetersPerSecond: Double, distanceMeters: Double, fuelLiters: Double) {
        self.session = session
        self.utcMs = utcMs
        self.latitude = latitude
        self.longitude = longitude
        self.speedMetersPerSecond = speedMetersPerSecond
        self.distanceMeters = distanceMeters
        self.fuelLiters = fuelLiters
    }
}
