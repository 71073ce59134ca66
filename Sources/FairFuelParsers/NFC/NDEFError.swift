/// Why NDEF bytes, or a record's payload, were refused; record indexes count from 0.
public enum NDEFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes end inside `field`: it needs `neededBytes` (a 32-bit payload length at most).
    case truncated(recordIndex: Int, field: NDEFField, neededBytes: UInt32, availableBytes: Int)
    /// TNF 7, which the NDEF specification reserves.
    case reservedTypeNameFormat(recordIndex: Int)
    /// TNF 1...4 require a TYPE.
    case missingType(recordIndex: Int, format: NDEFTypeNameFormat)
    /// TNF 0 allows no TYPE, ID or PAYLOAD; TNF 5 and 6 allow no TYPE.
    case unexpectedField(recordIndex: Int, field: NDEFField, format: NDEFTypeNameFormat, length: Int)
    case missingMessageBegin
    case unexpectedMessageBegin(recordIndex: Int)
    /// The bytes end before a record with the ME flag.
    case missingMessageEnd(recordCount: Int)
    case trailingBytes(afterRecordIndex: Int, count: Int)
    /// Chunked records (CF flag) are not supported: a driver's tag never needs them.
    case chunkedRecord(recordIndex: Int)
    /// TNF 6 outside a chunked record.
    case unchangedOutsideChunk(recordIndex: Int)

    /// The record is not of the type a payload decoder expected ("U", "T").
    case wrongRecordType(expected: String)
    case emptyURIPayload
    /// URI identifier codes 0x24...0xFF are reserved (NFC Forum RTD-URI 1.0, 3.2.2).
    case reservedURIPrefix(code: UInt8)
    case uriNotUTF8
    /// A control character (U+0000...U+001F, U+007F...U+009F) at `offset` bytes into the URI field.
    case uriControlCharacter(offset: Int)
    case emptyTextPayload
    case zeroLanguageCodeLength
    case languageCodeExceedsPayload(languageCodeLength: Int, payloadLength: Int)
    case textNotDecodable(encoding: NDEFTextRecord.Encoding)

    /// Encoding: a TYPE or ID longer than 255 bytes cannot be written.
    case fieldTooLong(field: NDEFField, length: Int)

    public var description: String {
        switch self {
        case .truncated(let index, let field, let needed, let available):
            return "NDEF record \(index): \(field) needs \(needed) byte(s), only \(available) left"
        case .reservedTypeNameFormat(let index):
            return "NDEF record \(index): TNF 7 is reserved"
        case .missingType(let index, let format):
            return "NDEF record \(index): a \(format) record (TNF \(format.rawValue)) needs a TYPE"
        case .unexpectedField(let index, let field, let format, let length):
            return "NDEF record \(index): a \(format) record (TNF \(format.rawValue)) "
                + "cannot have a \(length)-byte \(field)"
        case .missingMessageBegin:
            return "NDEF message: the first record lacks the MB flag"
        case .unexpectedMessageBegin(let index):
            return "NDEF message: record \(index) has the MB flag but is not the first"
        case .missingMessageEnd(let count):
            return "NDEF message: none of its \(count) record(s) has the ME flag"
        case .trailingBytes(let index, let count):
            return "NDEF message: \(count) byte(s) follow record \(index), which has the ME flag"
        case .chunkedRecord(let index):
            return "NDEF record \(index): chunked records (CF flag) are not supported"
        case .unchangedOutsideChunk(let index):
            return "NDEF record \(index): TNF 6 (unchanged) outside a chunked record"
        case .wrongRecordType(let expected):
            return "not an NDEF well-known \"\(expected)\" record"
        case .emptyURIPayload:
            return "URI record: empty payload (no identifier code)"
        case .reservedURIPrefix(let code):
            return "URI record: identifier code 0x\(String(code, radix: 16)) is reserved (0x24...0xFF)"
        case .uriNotUTF8:
            return "URI record: the URI field is not valid UTF-8"
        case .uriControlCharacter(let offset):
            return "URI record: control character at offset \(offset) of the URI field"
        case .emptyTextPayload:
            return "text record: empty payload (no status byte)"
        case .zeroLanguageCodeLength:
            return "text record: the language code length is zero"
        case .languageCodeExceedsPayload(let length, let payload):
            return "text record: a \(length)-byte language code does not fit a \(payload)-byte payload"
        case .textNotDecodable(let encoding):
            return "text record: the text is not valid \(encoding)"
        case .fieldTooLong(let field, let length):
            return "NDEF record: a \(length)-byte \(field) does not fit its 1-byte length"
        }
    }
}
