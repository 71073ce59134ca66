/// Distance in metres.
public struct Meters: Hashable, Comparable, Sendable, AdditiveArithmetic, CustomStringConvertible {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public static var zero: Meters { Meters(0) }
    public static func + (a: Meters, b: Meters) -> Meters { Meters(a.value + b.value) }
    public static func - (a: Meters, b: Meters) -> Meters { Meters(a.value - b.value) }
    public static func < (a: Meters, b: Meters) -> Bool { a.value < b.value }
    public var kilometers: Double { value / 1000 }
    public var description: String { "\(value) m" }
}

/// Speed in metres per second.
public struct MetersPerSecond: Hashable, Comparable, Sendable, AdditiveArithmetic, CustomStringConvertible {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public static var zero: MetersPerSecond { MetersPerSecond(0) }
    public static func + (a: MetersPerSecond, b: MetersPerSecond) -> MetersPerSecond { MetersPerSecond(a.value + b.value) }
    public static func - (a: MetersPerSecond, b: MetersPerSecond) -> MetersPerSecond { MetersPerSecond(a.value - b.value) }
    public static func < (a: MetersPerSecond, b: MetersPerSecond) -> Bool { a.value < b.value }
    /// One knot is 1852 m per hour.
    public static func knots(_ knots: Double) -> MetersPerSecond { MetersPerSecond(knots * 1852.0 / 3600.0) }
    public static func kilometersPerHour(_ kmh: Double) -> MetersPerSecond { MetersPerSecond(kmh / 3.6) }
    public var kilometersPerHour: Double { value * 3.6 }
    public var description: String { "\(value) m/s" }
}

/// A volume of fuel in litres.
public struct Liters: Hashable, Comparable, Sendable, AdditiveArithmetic, CustomStringConvertible {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public static var zero: Liters { Liters(0) }
    public static func + (a: Liters, b: Liters) -> Liters { Liters(a.value + b.value) }
    public static func - (a: Liters, b: Liters) -> Liters { Liters(a.value - b.value) }
    public static func < (a: Liters, b: Liters) -> Bool { a.value < b.value }
    public var description: String { "\(value) L" }
}

/// Money in the currency's minor units (cents for EUR and USD); never floating point.
public struct MinorUnits: Hashable, Comparable, Sendable, AdditiveArithmetic, CustomStringConvertible {
    public var value: Int64
    public init(_ value: Int64) { self.value = value }
    public static var zero: MinorUnits { MinorUnits(0) }
    public static func + (a: MinorUnits, b: MinorUnits) -> MinorUnits { MinorUnits(a.value + b.value) }
    public static func - (a: MinorUnits, b: MinorUnits) -> MinorUnits { MinorUnits(a.value - b.value) }
    public static func < (a: MinorUnits, b: MinorUnits) -> Bool { a.value < b.value }
    public var description: String { "\(value) minor units" }
}

/// Milliseconds on the link's monotonic clock (capture or MCU time, unwrapped); never wall time.
public struct LinkMilliseconds: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Int64
    public init(_ value: Int64) { self.value = value }
    public static func < (a: LinkMilliseconds, b: LinkMilliseconds) -> Bool { a.value < b.value }
    public static func + (a: LinkMilliseconds, b: Int64) -> LinkMilliseconds { LinkMilliseconds(a.value + b) }
    public static func - (a: LinkMilliseconds, b: LinkMilliseconds) -> Int64 { a.value - b.value }
    public var seconds: Double { Double(value) / 1000 }
    public var description: String { "\(value) ms" }
}
