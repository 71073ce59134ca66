/// The payload of an NDEF URI record (well-known type "U"): an identifier code and the URI field.
///
/// Identifier codes 0x00...0x23 stand for the 36 prefixes of NFC Forum RTD-URI 1.0, table 3.
/// Codes 0x24...0xFF are "reserved for future use" there, and a decoder has no prefix to put
/// back, so they are refused (`reservedURIPrefix`) unless the caller allows them, in which case
/// they are read as 0x00 (no prefix), as nfcpy's relaxed mode does.
public struct NDEFURIRecord: Sendable, Equatable {
    /// Prefixes by identifier code.
    public static let prefixes = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://",
        "ftp://", "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:",
        "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://",
        "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:",
        "urn:nfc:",
    ]

    /// The identifier code as sent.
    public var prefixCode: UInt8
    /// The URI field after the identifier code, UTF-8; a view into the message's bytes.
    public var uriField: ArraySlice<UInt8>

    /// Decodes a URI record's payload; checks the code, that the field is UTF-8 and that it holds
    /// no control character. Allocates nothing.
    public init(payload: ArraySlice<UInt8>, allowingReservedPrefix: Bool = false) throws(NDEFError) {
        guard let code = payload.first else { throw .emptyURIPayload }
        guard Int(code) < NDEFURIRecord.prefixes.count || allowingReservedPrefix else {
            throw .reservedURIPrefix(code: code)
        }
        let field = payload.dropFirst()
        var iterator = field.makeIterator()
        var decoder = Unicode.UTF8()
        var offset = 0
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F) {
                    throw .uriControlCharacter(offset: offset)
                }
                offset += UTF8.width(scalar)
            case .emptyInput:
                break decoding
            case .error:
                throw .uriNotUTF8
            }
        }
        prefixCode = code
        uriField = field
    }

    /// Decodes `record`'s payload after checking that it is a well-known "U" record.
    public init(_ record: NDEFRecord, allowingReservedPrefix: Bool = false) throws(NDEFError) {
        guard record.isWellKnown("U") else { throw .wrongRecordType(expected: "U") }
        try self.init(payload: record.payload, allowingReservedPrefix: allowingReservedPrefix)
    }

    /// The prefix the identifier code stands for ("" for 0x00 and for an allowed reserved code).
    public var prefix: String {
        Int(prefixCode) < NDEFURIRecord.prefixes.count ? NDEFURIRecord.prefixes[Int(prefixCode)] : ""
    }

    /// The full URI (allocates).
    public var uri: String { prefix + String(decoding: uriField, as: UTF8.self) }
}
