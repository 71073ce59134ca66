/// Why a vehicle fuel profile was refused.
public enum FuelProfileError: Error, Sendable, Equatable {
    case massOutOfRange(kilograms: Double, allowed: ClosedRange<Double>)
    case ratedConsumptionOutOfRange(litersPer100Kilometers: Double, allowed: ClosedRange<Double>)
    case idleRateOutOfRange(litersPerHour: Double, allowed: ClosedRange<Double>)
    case coldStartOutOfRange(liters: Double, allowed: ClosedRange<Double>)
    /// A non-finite coefficient, or a road load that does not resist motion up to 200 km/h.
    case implausibleRoadLoad(RoadLoad)
}
