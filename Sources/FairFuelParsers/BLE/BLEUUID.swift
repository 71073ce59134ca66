/// A Bluetooth UUID; 16- and 32-bit ones stand for UUIDs in the Bluetooth base range.
///
/// Stored in its full 128-bit form, so that `0xFEAA` and `0000feaa-0000-1000-8000-00805f9b34fb`
/// are equal.
public struct BLEUUID: Hashable, Sendable, CustomStringConvertible {
    /// The Bluetooth base UUID `00000000-0000-1000-8000-00805f9b34fb`.
    public static let base = UUID128(high: 0x0000_0000_0000_1000, low: 0x8000_0080_5F9B_34FB)
    /// The Eddystone service, 0xFEAA.
    public static let eddystone = BLEUUID(uuid16: 0xFEAA)

    public var uuid128: UUID128

    public init(_ uuid128: UUID128) { self.uuid128 = uuid128 }

    public init(uuid16: UInt16) { self.init(uuid32: UInt32(uuid16)) }

    public init(uuid32: UInt32) {
        uuid128 = UUID128(high: UInt64(uuid32) << 32 | BLEUUID.base.high, low: BLEUUID.base.low)
    }

    /// Reads a 2-, 4- or 16-byte UUID stored least significant first; nil for any other length.
    public init?(littleEndianBytes bytes: ArraySlice<UInt8>) {
        switch bytes.count {
        case 2, 4:
            var value: UInt32 = 0
            for byte in bytes.reversed() { value = value << 8 | UInt32(byte) }
            self.init(uuid32: value)
        case 16:
            self.init(UUID128(littleEndianBytes: bytes))
        default:
            return nil
        }
    }

    /// The 32-bit short form when the UUID lies in the Bluetooth base range, else nil.
    public var uuid32: UInt32? {
        guard uuid128.low == BLEUUID.base.low, uuid128.high & 0xFFFF_FFFF == BLEUUID.base.high
        else { return nil }
        return UInt32(truncatingIfNeeded: uuid128.high >> 32)
    }

    /// The 16-bit short form when the UUID lies in the base range below 0x10000, else nil.
    public var uuid16: UInt16? {
        guard let value = uuid32, value <= 0xFFFF else { return nil }
        return UInt16(value)
    }

    /// The full 128-bit form in lower case, as Bluetooth host stacks print it.
    public var description: String { uuid128.description }
}
