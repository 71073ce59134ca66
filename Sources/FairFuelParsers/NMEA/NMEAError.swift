/// Why one sentence was not decoded; each case maps to one `NMEAStats` counter.
///
/// Offsets count bytes from the start delimiter (`$` is offset 0); field numbers
/// count the fields after the address (the first field after `$GPRMC,` is 1).
public enum NMEAError: Error, Sendable, Equatable {
    /// No bytes, or only CR/LF.
    case empty
    /// Longer than `NMEAParser.maximumSentenceBytes` (CR LF excluded).
    case tooLong(length: Int)
    /// The text reader cut the line before its end.
    case truncated
    /// The first byte is neither `$` nor `!`.
    case badStart(byte: UInt8)
    /// A byte that may not appear in a sentence: outside printable ASCII, or a second `$`/`!`.
    case badByte(offset: Int, byte: UInt8)
    /// `*` is not followed by exactly two hex digits and the end of the sentence.
    case badChecksumField(offset: Int)
    /// No `*HH`, and the configuration requires one.
    case missingChecksum
    /// `expected` is the XOR of the bytes between the delimiters; `actual` is what `*HH` said.
    case badChecksum(expected: UInt8, actual: UInt8)
    /// The address is empty or holds characters other than upper-case letters and digits.
    case badAddress(NMEAAddress)
    /// A well-formed sentence this module does not decode: proprietary, AIS, a talker that is not two letters, other formatters.
    case unsupported(NMEAAddress)
    /// Fewer fields than the sentence table's minimum for this type.
    case tooFewFields(NMEASentenceType, count: Int, minimum: Int)
    /// More fields than the sentence type can hold.
    case tooManyFields(NMEASentenceType, count: Int, maximum: Int)
    /// A non-empty field whose content is invalid (not a number, out of range, unknown letter).
    case badField(NMEASentenceType, field: Int)

    /// The counter this error is counted under.
    public var category: Category {
        switch self {
        case .badChecksum: .badChecksum
        case .unsupported: .unsupported
        default: .malformed
        }
    }

    /// The outcome counters of `NMEAStats` that an error can fall under.
    public enum Category: Sendable, Equatable {
        case badChecksum
        case malformed
        case unsupported
    }
}

extension NMEAError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "empty sentence"
        case .tooLong(let length): "sentence of \(length) bytes is longer than \(NMEAParser.maximumSentenceBytes)"
        case .truncated: "line cut by the reader"
        case .badStart(let byte): "starts with byte \(byte), not $ or !"
        case .badByte(let offset, let byte): "byte \(byte) at offset \(offset) not allowed"
        case .badChecksumField(let offset): "checksum field at offset \(offset) is not two hex digits"
        case .missingChecksum: "no checksum"
        case .badChecksum(let expected, let actual):
            "checksum \(NMEAError.hex(actual)) but the bytes give \(NMEAError.hex(expected))"
        case .badAddress(let address): "bad address \(address)"
        case .unsupported(let address): "unsupported sentence \(address)"
        case .tooFewFields(let type, let count, let minimum): "\(type) with \(count) fields, needs \(minimum)"
        case .tooManyFields(let type, let count, let maximum): "\(type) with \(count) fields, at most \(maximum)"
        case .badField(let type, let field): "\(type) field \(field) is invalid"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}
