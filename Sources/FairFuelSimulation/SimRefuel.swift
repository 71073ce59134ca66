import FairFuelCore
import FairFuelParsers

/// A fuel stop's refuel, as the family would enter it with `fairfuel refuel`.
public struct SimRefuel: Sendable, Equatable {
    public var line: Int
    public var timeMs: Int64
    public var utc: UTCTimestamp
    public var driver: String?
    public var liters: Liters?
    public var cost: MinorUnits?
}
