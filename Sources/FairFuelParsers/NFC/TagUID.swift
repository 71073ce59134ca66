import FairFuelCore

/// An NFC tag's UID (4, 7, 8 or 10 bytes) held inline, with no heap storage.
///
/// `description` is upper-case hex with `:` separators (`04:A2:2B:1A:5C:80:80`);
/// `plainHex` has none.
public struct TagUID: Hashable, Sendable, RandomAccessCollection, CustomStringConvertible {
    public static let maximumByteCount = 10
    /// Lengths some technology allows, for UIDs typed by hand.
    public static let possibleLengths = [4, 7, 8, 10]

    /// Bytes 0...7, first most significant, zero past the end.
    private let head: UInt64
    /// Bytes 8...9, zero past the end.
    private let tail: UInt16
    private let length: UInt8

    /// The UID a tag of `technology` reported; throws on a length that technology cannot have.
    public init(bytes: ArraySlice<UInt8>, technology: NFCTechnology) throws(TagUIDError) {
        guard technology.acceptsUIDLength(bytes.count) else {
            throw .impossibleUIDLength(technology: technology, length: bytes.count)
        }
        self.init(unchecked: bytes)
    }

    /// A UID of any technology's length (4, 7, 8 or 10 bytes).
    public init(bytes: ArraySlice<UInt8>) throws(TagUIDError) {
        guard TagUID.possibleLengths.contains(bytes.count) else {
            throw .impossibleUIDLength(technology: nil, length: bytes.count)
        }
        self.init(unchecked: bytes)
    }

    private init(unchecked bytes: ArraySlice<UInt8>) {
        var head: UInt64 = 0
        var tail: UInt16 = 0
        for (offset, byte) in bytes.enumerated() {
            if offset < 8 {
                head |= UInt64(byte) << UInt64(56 - 8 * offset)
            } else {
                tail |= UInt16(byte) << UInt16(8 - 8 * (offset - 8))
            }
        }
        self.head = head
        self.tail = tail
        length = UInt8(bytes.count)
    }

    /// A 4-byte UID starting 0x08: ISO/IEC 14443-3 "random ID", drawn afresh at every
    /// activation (bank cards, phones emulating a card), so it never names the same card twice.
    public var isRandomlyGenerated: Bool { length == 4 && head >> 56 == 0x08 }

    /// Parses hex text in either case, with or without `:` between bytes (`--tag` provisioning).
    public init(parsing text: String) throws(TagUIDError) {
        guard !text.isEmpty else { throw .empty }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(TagUID.maximumByteCount)
        var pending: UInt8? = nil
        var previousWasSeparator = true  // a separator may not open the text
        for (offset, char) in text.utf8.enumerated() {
            if char == UInt8(ascii: ":") {
                guard pending == nil, !previousWasSeparator else {
                    throw .misplacedSeparator(text: text, offset: offset)
                }
                previousWasSeparator = true
                continue
            }
            guard let nibble = Hex.nibble(char) else { throw .notHex(text: text, offset: offset) }
            previousWasSeparator = false
            if let high = pending {
                bytes.append(high << 4 | nibble)
                pending = nil
            } else {
                pending = nibble
            }
        }
        guard pending == nil else { throw .oddDigitCount(text: text) }
        if previousWasSeparator {
            throw .misplacedSeparator(text: text, offset: text.utf8.count - 1)
        }
        try self.init(bytes: bytes[...])
    }

    /// The UID length that an ISO/IEC 14443-A ATQA announces (its bits b8 b7); nil when reserved.
    ///
    /// `atqa` is the value as the link carries it, least significant byte first on air
    /// (`44 00` on air is 0x0044, a double-size UID).
    public static func iso14443AUIDLength(atqa: UInt16) -> Int? {
        switch (atqa >> 6) & 0b11 {
        case 0b00: 4
        case 0b01: 7
        case 0b10: 10
        default: nil
        }
    }

    /// Checks that this UID has the size an ISO/IEC 14443-A tag's ATQA announces.
    public func checkISO14443A(atqa: UInt16) throws(TagUIDError) {
        guard let expected = TagUID.iso14443AUIDLength(atqa: atqa) else {
            throw .reservedUIDSize(atqa: atqa)
        }
        guard expected == count else {
            throw .uidSizeMismatch(atqa: atqa, expectedLength: expected, actualLength: count)
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(length) }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < Int(length), "index out of range")
        if position < 8 { return UInt8(truncatingIfNeeded: head >> UInt64(56 - 8 * position)) }
        return UInt8(truncatingIfNeeded: tail >> UInt16(8 - 8 * (position - 8)))
    }

    /// Upper-case hex with `:` between bytes.
    public var description: String { hex(separator: ":") }

    /// Upper-case hex with no separators.
    public var plainHex: String { hex(separator: nil) }

    private func hex(separator: Character?) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        var text = ""
        text.reserveCapacity(count * 3)
        for (offset, byte) in enumerated() {
            if offset > 0, let separator { text.append(separator) }
            digits.withUTF8Buffer { table in
                text.unicodeScalars.append(Unicode.Scalar(table[Int(byte >> 4)]))
                text.unicodeScalars.append(Unicode.Scalar(table[Int(byte & 0x0F)]))
            }
        }
        return text
    }
}
