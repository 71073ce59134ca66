import FairFuelCore

/// Why bytes or text do not make a tag UID.
public enum TagUIDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `technology` is nil for text, which allows any length a technology allows (4, 7, 8, 10).
    case impossibleUIDLength(technology: NFCTechnology?, length: Int)
    case empty
    /// `offset` counts UTF-8 bytes from the start of `text`.
    case notHex(text: String, offset: Int)
    case oddDigitCount(text: String)
    /// A `:` at the start or end, doubled, or inside a byte.
    case misplacedSeparator(text: String, offset: Int)
    /// The ATQA's UID size bits (b8 b7) name a size other than the UID's.
    case uidSizeMismatch(atqa: UInt16, expectedLength: Int, actualLength: Int)
    /// The ATQA's UID size bits are 11, which ISO/IEC 14443-3 reserves.
    case reservedUIDSize(atqa: UInt16)

    public var description: String {
        switch self {
        case .impossibleUIDLength(let technology?, let length):
            let allowed = technology == .iso14443A ? "4, 7 or 10" : technology == .iso14443B ? "4" : "8"
            return "a \(technology.name) UID has \(allowed) bytes, not \(length)"
        case .impossibleUIDLength(nil, let length):
            return "a tag UID has 4, 7, 8 or 10 bytes, not \(length)"
        case .empty:
            return "empty tag UID; expected hex like 04:A2:2B:1A:5C:80:80 or 04A22B1A5C8080"
        case .notHex(let text, let offset):
            return "tag UID '\(text)' has a character that is not hex at offset \(offset)"
        case .oddDigitCount(let text):
            return "tag UID '\(text)' has an odd number of hex digits"
        case .misplacedSeparator(let text, let offset):
            return "tag UID '\(text)' has a ':' at offset \(offset) that does not sit between two bytes"
        case .uidSizeMismatch(let atqa, let expected, let actual):
            return "ATQA 0x\(String(atqa, radix: 16)) announces a \(expected)-byte UID, got \(actual) bytes"
        case .reservedUIDSize(let atqa):
            return "ATQA 0x\(String(atqa, radix: 16)) has the reserved UID size bits 11"
        }
    }
}
