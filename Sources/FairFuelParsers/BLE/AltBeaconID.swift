import FairFuelCore

/// The 20-byte beacon id of an AltBeacon frame, printed as 40 lower-case hex digits.
///
/// By convention its first 16 bytes are an organisational UUID and the last 4 a major and minor.
public struct AltBeaconID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Bytes 0...7, the first one most significant.
    public var high: UInt64
    /// Bytes 8...15.
    public var middle: UInt64
    /// Bytes 16...19.
    public var low: UInt32

    public init(high: UInt64, middle: UInt64, low: UInt32) {
        self.high = high
        self.middle = middle
        self.low = low
    }

    /// From exactly 20 bytes, first most significant.
    public init(bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == 20, "an AltBeacon id has 20 bytes")
        high = BeaconBytes.uint64(bytes, 0, count: 8)
        middle = BeaconBytes.uint64(bytes, 8, count: 8)
        low = BeaconBytes.uint32(bytes, 16)
    }

    /// The first 16 bytes as a UUID.
    public var uuid: UUID128 { UUID128(high: high, low: middle) }
    /// Bytes 16...17.
    public var major: UInt16 { UInt16(truncatingIfNeeded: low >> 16) }
    /// Bytes 18...19.
    public var minor: UInt16 { UInt16(truncatingIfNeeded: low) }

    /// Byte `index` (0...19), first most significant.
    public func byte(at index: Int) -> UInt8 {
        precondition(index >= 0 && index < 20, "an AltBeacon id has 20 bytes")
        switch index {
        case 0..<8: return UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
        case 8..<16: return UInt8(truncatingIfNeeded: middle >> UInt64(56 - 8 * (index - 8)))
        default: return UInt8(truncatingIfNeeded: low >> UInt32(24 - 8 * (index - 16)))
        }
    }

    public var description: String {
        var text = ""
        text.reserveCapacity(40)
        for index in 0..<20 { Hex.append(CollectionOfOne(byte(at: index)), to: &text) }
        return text
    }

    public static func < (lhs: AltBeaconID, rhs: AltBeaconID) -> Bool {
        (lhs.high, lhs.middle, lhs.low) < (rhs.high, rhs.middle, rhs.low)
    }
}
