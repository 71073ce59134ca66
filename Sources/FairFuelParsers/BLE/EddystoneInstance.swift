import FairFuelCore

/// The 6-byte instance of an Eddystone-UID, printed as 12 lower-case hex digits.
public struct EddystoneInstance: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The six bytes in the low 48 bits, first most significant.
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFFFF_FFFF_FFFF }

    /// From exactly 6 bytes, first most significant.
    public init(bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == 6, "an Eddystone instance has 6 bytes")
        self.init(rawValue: BeaconBytes.uint64(bytes, 0, count: 6))
    }

    public var description: String {
        var text = ""
        text.reserveCapacity(12)
        for shift in stride(from: 40, through: 0, by: -8) {
            Hex.append(CollectionOfOne(UInt8(truncatingIfNeeded: rawValue >> UInt64(shift))), to: &text)
        }
        return text
    }

    public static func < (lhs: EddystoneInstance, rhs: EddystoneInstance) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
