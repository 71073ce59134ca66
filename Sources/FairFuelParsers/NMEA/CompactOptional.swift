import FairFuelCore

/// Stores an optional number in 8 bytes instead of 16, so that decoded sentences
/// and fixes, which are copied by value on the hot path, stay small.
///
/// nil is a quiet-NaN bit pattern that parsing and arithmetic never produce
/// (storing exactly that NaN reads back as nil).
@propertyWrapper
public struct CompactOptional<Value: CompactOptionalStorable>: Hashable, Sendable {
    @usableFromInline static var nilBits: UInt64 { 0x7FF8_4E49_4C00_0001 }

    @usableFromInline var bits: UInt64

    @inlinable
    public init(wrappedValue: Value?) {
        bits = wrappedValue.map { $0.compactStorage.bitPattern } ?? Self.nilBits
    }

    @inlinable
    public var wrappedValue: Value? {
        get { bits == Self.nilBits ? nil : Value.fromCompactStorage(Double(bitPattern: bits)) }
        set { bits = newValue.map { $0.compactStorage.bitPattern } ?? Self.nilBits }
    }
}

/// A value that round-trips through a Double (integers below 2^53, unit wrappers).
///
/// A static function rather than an initializer, so that `Int.init` or
/// `Meters.init` elsewhere do not become ambiguous.
public protocol CompactOptionalStorable: Sendable {
    var compactStorage: Double { get }
    static func fromCompactStorage(_ storage: Double) -> Self
}

extension Double: CompactOptionalStorable {
    @inlinable public var compactStorage: Double { self }
    @inlinable public static func fromCompactStorage(_ storage: Double) -> Double { storage }
}

extension Int: CompactOptionalStorable {
    @inlinable public var compactStorage: Double { Double(self) }
    @inlinable public static func fromCompactStorage(_ storage: Double) -> Int { Int(storage) }
}

extension Meters: CompactOptionalStorable {
    @inlinable public var compactStorage: Double { value }
    @inlinable public static func fromCompactStorage(_ storage: Double) -> Meters { Meters(storage) }
}

extension MetersPerSecond: CompactOptionalStorable {
    @inlinable public var compactStorage: Double { value }
    @inlinable public static func fromCompactStorage(_ storage: Double) -> MetersPerSecond {
        MetersPerSecond(storage)
    }
}
