/// The payload of an NDEF text record (well-known type "T"), per NFC Forum RTD-Text 1.0.
///
/// Payload: a status byte (bit 7: UTF-16 rather than UTF-8; bit 6 reserved, ignored;
/// bits 5...0: language code length), the IANA language code, then the text. UTF-16 text may
/// open with a byte order mark; without one it is big-endian.
public struct NDEFTextRecord: Sendable, Equatable {
    public enum Encoding: Sendable, Equatable, CustomStringConvertible {
        case utf8
        case utf16

        public var description: String { self == .utf8 ? "UTF-8" : "UTF-16" }
    }

    public var encoding: Encoding
    /// The language code (ASCII, such as "en" or "en-US").
    public var languageCode: ArraySlice<UInt8>
    /// The encoded text, without a UTF-16 byte order mark.
    public var textBytes: ArraySlice<UInt8>
    /// For UTF-16: whether the byte order mark said little-endian.
    public var isLittleEndian: Bool

    /// Decodes a text record's payload and checks that the text decodes; allocates nothing.
    public init(payload: ArraySlice<UInt8>) throws(NDEFError) {
        guard let status = payload.first else { throw .emptyTextPayload }
        let languageLength = Int(status & 0x3F)
        guard languageLength > 0 else { throw .zeroLanguageCodeLength }
        guard languageLength < payload.count else {
            throw .languageCodeExceedsPayload(languageCodeLength: languageLength, payloadLength: payload.count)
        }
        encoding = status & 0x80 != 0 ? .utf16 : .utf8
        let languageStart = payload.startIndex + 1
        languageCode = payload[languageStart..<(languageStart + languageLength)]
        var text = payload[(languageStart + languageLength)...]
        isLittleEndian = false
        switch encoding {
        case .utf8:
            var iterator = text.makeIterator()
            var decoder = Unicode.UTF8()
            guard NDEFTextRecord.decodesCleanly(&decoder, &iterator) else {
                throw .textNotDecodable(encoding: .utf8)
            }
        case .utf16:
            if text.count >= 2 {
                let first = text[text.startIndex]
                let second = text[text.startIndex + 1]
                if first == 0xFF, second == 0xFE {
                    isLittleEndian = true
                    text = text.dropFirst(2)
                } else if first == 0xFE, second == 0xFF {
                    text = text.dropFirst(2)
                }
            }
            guard text.count % 2 == 0 else { throw .textNotDecodable(encoding: .utf16) }
            var iterator = UTF16Units(bytes: text, isLittleEndian: isLittleEndian)
            var decoder = Unicode.UTF16()
            guard NDEFTextRecord.decodesCleanly(&decoder, &iterator) else {
                throw .textNotDecodable(encoding: .utf16)
            }
        }
        textBytes = text
    }

    /// Decodes `record`'s payload after checking that it is a well-known "T" record.
    public init(_ record: NDEFRecord) throws(NDEFError) {
        guard record.isWellKnown("T") else { throw .wrongRecordType(expected: "T") }
        try self.init(payload: record.payload)
    }

    public var language: String { String(decoding: languageCode, as: UTF8.self) }

    /// The text (allocates).
    public var text: String {
        switch encoding {
        case .utf8:
            return String(decoding: textBytes, as: UTF8.self)
        case .utf16:
            var result = ""
            var iterator = UTF16Units(bytes: textBytes, isLittleEndian: isLittleEndian)
            var decoder = Unicode.UTF16()
            while case .scalarValue(let scalar) = decoder.decode(&iterator) {
                result.unicodeScalars.append(scalar)
            }
            return result
        }
    }

    private static func decodesCleanly<D: UnicodeCodec, I: IteratorProtocol>(
        _ decoder: inout D, _ iterator: inout I
    ) -> Bool where I.Element == D.CodeUnit {
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// UTF-16 code units read from byte pairs.
    private struct UTF16Units: IteratorProtocol {
        var bytes: ArraySlice<UInt8>
        let isLittleEndian: Bool

        mutating func next() -> UInt16? {
            guard bytes.count >= 2 else { return nil }
            let first = UInt16(bytes[bytes.startIndex])
            let second = UInt16(bytes[bytes.startIndex + 1])
            bytes = bytes.dropFirst(2)
            return isLittleEndian ? second << 8 | first : first << 8 | second
        }
    }
}
