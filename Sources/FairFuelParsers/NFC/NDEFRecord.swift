/// One NDEF record, its fields views into the message's bytes (no copy).
public struct NDEFRecord: Sendable, Equatable {
    public var isMessageBegin: Bool
    public var isMessageEnd: Bool
    public var isChunked: Bool
    /// Whether PAYLOAD_LENGTH took one byte (SR) rather than four.
    public var isShortRecord: Bool
    /// Whether the header had IL set (an ID_LENGTH byte, possibly 0).
    public var hasIDLength: Bool
    public var typeNameFormat: NDEFTypeNameFormat
    public var type: ArraySlice<UInt8>
    /// Empty when the record has no ID field (IL clear) or an empty one.
    public var id: ArraySlice<UInt8>
    public var payload: ArraySlice<UInt8>

    public init(
        isMessageBegin: Bool, isMessageEnd: Bool, isChunked: Bool = false, isShortRecord: Bool,
        hasIDLength: Bool, typeNameFormat: NDEFTypeNameFormat, type: ArraySlice<UInt8>, id: ArraySlice<UInt8>,
        payload: ArraySlice<UInt8>
    ) {
        self.isMessageBegin = isMessageBegin
        self.isMessageEnd = isMessageEnd
        self.isChunked = isChunked
        self.isShortRecord = isShortRecord
        self.hasIDLength = hasIDLength
        self.typeNameFormat = typeNameFormat
        self.type = type
        self.id = id
        self.payload = payload
    }

    /// Decodes the record that opens `bytes` and removes it from `bytes`.
    ///
    /// Checks each length against the bytes left before reading (a 4-byte PAYLOAD_LENGTH can
    /// claim up to 4 GiB) and the TNF rules on which fields may be empty; leaves the flags to
    /// the caller (`NDEFMessage` checks MB, ME and CF). `recordIndex` only names the record in
    /// errors. On error `bytes` is unchanged.
    public static func decode(from bytes: inout ArraySlice<UInt8>, recordIndex: Int = 0)
        throws(NDEFError) -> NDEFRecord
    {
        var position = bytes.startIndex
        let end = bytes.endIndex

        func take(_ count: UInt32, _ field: NDEFField) throws(NDEFError) -> ArraySlice<UInt8> {
            let available = end - position
            guard UInt64(count) <= UInt64(available) else {
                throw .truncated(
                    recordIndex: recordIndex, field: field, neededBytes: count, availableBytes: available)
            }
            let field = bytes[position..<(position + Int(count))]
            position += Int(count)
            return field
        }

        let header = try take(1, .header).first!
        guard let format = NDEFTypeNameFormat(rawValue: header & 0x07) else {
            throw .reservedTypeNameFormat(recordIndex: recordIndex)
        }
        let isShortRecord = header & 0x10 != 0
        let hasIDLength = header & 0x08 != 0

        let typeLength = UInt32(try take(1, .typeLength).first!)
        let payloadLength: UInt32
        if isShortRecord {
            payloadLength = UInt32(try take(1, .payloadLength).first!)
        } else {
            payloadLength = try take(4, .payloadLength).reduce(0) { $0 << 8 | UInt32($1) }
        }
        let idLength = hasIDLength ? UInt32(try take(1, .idLength).first!) : 0

        switch format {
        case .empty:
            let field: NDEFField? =
                typeLength != 0 ? .type : idLength != 0 ? .id : payloadLength != 0 ? .payload : nil
            if let field {
                let length = field == .type ? typeLength : field == .id ? idLength : payloadLength
                throw .unexpectedField(
                    recordIndex: recordIndex, field: field, format: format, length: Int(clamping: length))
            }
        case .wellKnown, .media, .absoluteURI, .external:
            guard typeLength > 0 else { throw .missingType(recordIndex: recordIndex, format: format) }
        case .unknown, .unchanged:
            guard typeLength == 0 else {
                throw .unexpectedField(
                    recordIndex: recordIndex, field: .type, format: format, length: Int(typeLength))
            }
        }

        let type = try take(typeLength, .type)
        let id = try take(idLength, .id)
        let payload = try take(payloadLength, .payload)
        bytes = bytes[position...]
        return NDEFRecord(
            isMessageBegin: header & 0x80 != 0, isMessageEnd: header & 0x40 != 0,
            isChunked: header & 0x20 != 0, isShortRecord: isShortRecord, hasIDLength: hasIDLength,
            typeNameFormat: format,
            type: type, id: id, payload: payload)
    }

    /// Bytes the record took in its message: header, length fields, TYPE, ID and PAYLOAD.
    public var encodedByteCount: Int {
        2 + (isShortRecord ? 1 : 4) + (hasIDLength ? 1 : 0) + type.count + id.count + payload.count
    }

    /// Whether this is a well-known record of `type` (such as "U" or "T").
    public func isWellKnown(_ type: StaticString) -> Bool {
        guard typeNameFormat == .wellKnown else { return false }
        return type.withUTF8Buffer { self.type.elementsEqual($0) }
    }
}
