/// The address field of a sentence (`GPRMC`, `PGRME`, `AIVDM`), kept inline for error context.
///
/// Holds at most the first eight characters; `description` shows them with the
/// start delimiter (`$GPTXT`, `!AIVDM`).
public struct NMEAAddress: Hashable, Sendable, CustomStringConvertible {
    /// Up to eight ASCII bytes, first byte in the lowest bits.
    public let packed: UInt64
    /// Number of bytes in `packed` (0...8).
    public let count: UInt8
    /// `$` or `!`.
    public let delimiter: UInt8

    public init(packed: UInt64, count: UInt8, delimiter: UInt8) {
        self.packed = packed
        self.count = count
        self.delimiter = delimiter
    }

    /// The address of `bytes[range]`, cut to eight bytes.
    public init(_ bytes: Span<UInt8>, _ range: Range<Int>, delimiter: UInt8) {
        var packed: UInt64 = 0
        var count: UInt8 = 0
        var index = range.lowerBound
        while index < range.upperBound && count < 8 {
            packed |= UInt64(bytes[index]) << (8 * UInt64(count))
            count += 1
            index += 1
        }
        self.init(packed: packed, count: count, delimiter: delimiter)
    }

    /// A proprietary sentence: `$P` followed by a manufacturer code.
    public var isProprietary: Bool {
        delimiter == UInt8(ascii: "$") && count > 0 && packed & 0xFF == UInt64(UInt8(ascii: "P"))
    }

    /// An encapsulation sentence such as AIS `!AIVDM`.
    public var isEncapsulation: Bool { delimiter == UInt8(ascii: "!") }

    public var description: String {
        var text = String(Unicode.Scalar(delimiter))
        for index in 0..<Int(count) {
            let byte = UInt8(truncatingIfNeeded: packed >> (8 * UInt64(index)))
            text.unicodeScalars.append(Unicode.Scalar(byte))
        }
        return text
    }
}
