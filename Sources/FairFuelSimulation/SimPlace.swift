/// A named location; `rangeMeters` is how far from the car people at this place are
/// (a fob on the key hook inside the house is faintly heard by the parked car).
public struct SimPlace: Sendable, Equatable {
    public var name: String
    public var position: GeoPoint
    public var rangeMeters: Double?

    public init(name: String, position: GeoPoint, rangeMeters: Double? = nil) {
        self.name = name
        self.position = position
        self.rangeMeters = rangeMeters
    }
}

public enum SimVehicleStart: Sendable, Equatable {
    case place(String)
    case position(GeoPoint)
}
