import FairFuelCore

/// The 10-byte namespace of an Eddystone-UID, printed as 20 lower-case hex digits.
public struct EddystoneNamespace: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Bytes 0...1, the first one most significant.
    public var high: UInt16
    /// Bytes 2...9.
    public var low: UInt64

    public init(high: UInt16, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From exactly 10 bytes, first most significant.
    public init(bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == 10, "an Eddystone namespace has 10 bytes")
        high = BeaconBytes.uint16(bytes, 0)
        low = BeaconBytes.uint64(bytes, 2, count: 8)
    }

    /// Byte `index` (0...9), first most significant.
    public func byte(at index: Int) -> UInt8 {
        precondition(index >= 0 && index < 10, "an Eddystone namespace has 10 bytes")
        if index < 2 { return UInt8(truncatingIfNeeded: high >> UInt16(8 - 8 * index)) }
        return UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * (index - 2)))
    }

    public var description: String {
        var text = ""
        text.reserveCapacity(20)
        for index in 0..<10 { Hex.append(CollectionOfOne(byte(at: index)), to: &text) }
        return text
    }

    public static func < (lhs: EddystoneNamespace, rhs: EddystoneNamespace) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}
