/// Builds NDEF records and messages as bytes (for NFC_WRITE and for tests).
public enum NDEFEncoder {
    /// One record: SR when the payload is shorter than 256 bytes, IL when `id` is not empty.
    public static func record(
        format: NDEFTypeNameFormat, type: ArraySlice<UInt8>, id: ArraySlice<UInt8> = [],
        payload: ArraySlice<UInt8>, isMessageBegin: Bool, isMessageEnd: Bool
    ) throws(NDEFError) -> [UInt8] {
        guard type.count <= 255 else { throw .fieldTooLong(field: .type, length: type.count) }
        guard id.count <= 255 else { throw .fieldTooLong(field: .id, length: id.count) }
        let isShort = payload.count < 256
        var header = format.rawValue
        if isMessageBegin { header |= 0x80 }
        if isMessageEnd { header |= 0x40 }
        if isShort { header |= 0x10 }
        if !id.isEmpty { header |= 0x08 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(7 + type.count + id.count + payload.count)
        bytes.append(header)
        bytes.append(UInt8(type.count))
        if isShort {
            bytes.append(UInt8(payload.count))
        } else {
            let length = UInt32(payload.count)
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift)))
            }
        }
        if !id.isEmpty { bytes.append(UInt8(id.count)) }
        bytes += type
        bytes += id
        bytes += payload
        return bytes
    }

    /// A message of one URI record (MB|ME, TNF 1, type "U").
    ///
    /// With `abbreviating`, the longest matching RTD-URI prefix is replaced by its code;
    /// without, the code is 0x00 and the URI is written whole.
    public static func uriMessage(_ uri: String, abbreviating: Bool = true) throws(NDEFError) -> [UInt8] {
        var code = 0
        if abbreviating {
            for (candidate, prefix) in NDEFURIRecord.prefixes.enumerated()
            where !prefix.isEmpty && uri.utf8.starts(with: prefix.utf8)
                && prefix.utf8.count > NDEFURIRecord.prefixes[code].utf8.count
            {
                code = candidate
            }
        }
        var payload: [UInt8] = [UInt8(code)]
        payload += uri.utf8.dropFirst(NDEFURIRecord.prefixes[code].utf8.count)
        return try record(
            format: .wellKnown, type: [UInt8(ascii: "U")], payload: payload[...],
            isMessageBegin: true, isMessageEnd: true)
    }
}
