import FairFuelCore

/// A 128-bit UUID, printed 8-4-4-4-12 in lower case with the first printed byte most significant.
///
/// Used for iBeacon proximity UUIDs, 128-bit service UUIDs and driver ids.
public struct UUID128: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Printed bytes 0...7, the first one most significant.
    public var high: UInt64
    /// Printed bytes 8...15, the first one most significant.
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From 16 bytes in printed order (as iBeacon carries its proximity UUID).
    public init(bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        var high: UInt64 = 0
        var low: UInt64 = 0
        var index = bytes.startIndex
        for _ in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            index += 1
        }
        for _ in 0..<8 {
            low = low << 8 | UInt64(bytes[index])
            index += 1
        }
        self.init(high: high, low: low)
    }

    /// From 16 bytes least significant first, as Bluetooth carries 128-bit service UUIDs.
    public init(littleEndianBytes bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        var high: UInt64 = 0
        var low: UInt64 = 0
        var index = bytes.endIndex
        for _ in 0..<8 {
            index -= 1
            high = high << 8 | UInt64(bytes[index])
        }
        for _ in 0..<8 {
            index -= 1
            low = low << 8 | UInt64(bytes[index])
        }
        self.init(high: high, low: low)
    }

    /// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex digits in either case); nil when malformed.
    public init?(_ text: some StringProtocol) {
        guard let value = UUID128.parse(text.utf8) else { return nil }
        self = value
    }

    /// Parses the 36 ASCII bytes of an 8-4-4-4-12 UUID without allocating; nil when malformed.
    public init?(utf8 text: ArraySlice<UInt8>) {
        guard let value = UUID128.parse(text) else { return nil }
        self = value
    }

    private static func parse<C: Collection>(_ text: C) -> UUID128? where C.Element == UInt8 {
        guard text.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digitCount = 0
        var position = 0
        for char in text {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard char == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Hex.nibble(char) else { return nil }
            if digitCount < 16 {
                high = high << 4 | UInt64(nibble)
            } else {
                low = low << 4 | UInt64(nibble)
            }
            digitCount += 1
        }
        return UUID128(high: high, low: low)
    }

    /// Byte `index` (0...15) in printed order.
    public func byte(at index: Int) -> UInt8 {
        precondition(index >= 0 && index < 16, "a UUID has 16 bytes")
        let word = index < 8 ? high : low
        return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index & 7)))
    }

    /// The 16 bytes in printed order.
    public var bytes: [UInt8] { (0..<16).map { byte(at: $0) } }

    public var description: String {
        var text = ""
        text.reserveCapacity(36)
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 { text += "-" }
            Hex.append(CollectionOfOne(byte(at: index)), to: &text)
        }
        return text
    }

    public static func < (lhs: UUID128, rhs: UUID128) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}
