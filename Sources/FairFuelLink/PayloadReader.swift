/// Why a frame's payload was refused (counted as `bad_payload`).
public enum PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooShort(type: FrameType, minimum: Int, actual: Int)
    case tooLong(type: FrameType, maximum: Int, actual: Int)
    case outOfRange(type: FrameType, field: String, value: Int)
    /// An NMEA sentence that does not start with `$` or `!` (nil: empty).
    case sentenceBadStart(UInt8?)
    /// An NMEA sentence byte outside printable ASCII, at `offset` in the sentence.
    case sentenceNotPrintable(byte: UInt8, offset: Int)

    public var description: String {
        switch self {
        case let .tooShort(type, minimum, actual):
            "\(type.jsonName) payload of \(actual) bytes, at least \(minimum) needed"
        case let .tooLong(type, maximum, actual):
            "\(type.jsonName) payload of \(actual) bytes, at most \(maximum) allowed"
        case let .outOfRange(type, field, value):
            "\(type.jsonName) field \(field) out of range: \(value)"
        case let .sentenceBadStart(byte):
            byte.map { "nmea sentence starts with byte 0x\(String($0, radix: 16)), not $ or !" } ?? "nmea sentence is empty"
        case let .sentenceNotPrintable(byte, offset):
            "nmea sentence holds byte 0x\(String(byte, radix: 16)) outside printable ASCII at offset \(offset)"
        }
    }
}

/// Reads little-endian fields from a payload, front to back.
struct PayloadReader {
    let type: FrameType
    let payload: ArraySlice<UInt8>
    var index: Int

    init(_ payload: ArraySlice<UInt8>, type: FrameType) {
        self.payload = payload
        self.type = type
        index = payload.startIndex
    }

    var remaining: Int { payload.endIndex - index }

    /// Fails unless the payload is between `minimum` and `maximum` bytes long.
    func requireLength(_ minimum: Int, _ maximum: Int) throws(PayloadError) {
        if payload.count < minimum {
            throw .tooShort(type: type, minimum: minimum, actual: payload.count)
        }
        if payload.count > maximum {
            throw .tooLong(type: type, maximum: maximum, actual: payload.count)
        }
    }

    mutating func u8() -> UInt8 {
        defer { index += 1 }
        return payload[index]
    }

    mutating func i8() -> Int8 { Int8(bitPattern: u8()) }

    mutating func u16() -> UInt16 {
        let low = UInt16(payload[index])
        let high = UInt16(payload[index + 1])
        index += 2
        return high << 8 | low
    }

    mutating func u32() -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            value |= UInt32(payload[index]) << UInt32(shift)
            index += 1
        }
        return value
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8> {
        defer { index += count }
        return payload[index..<index + count]
    }

    mutating func rest() -> ArraySlice<UInt8> {
        defer { index = payload.endIndex }
        return payload[index...]
    }

    /// Maps a raw byte to an enum, or fails naming the field.
    func enumValue<E: RawRepresentable>(_ raw: UInt8, field: String) throws(PayloadError) -> E
    where E.RawValue == UInt8 {
        guard let value = E(rawValue: raw) else {
            throw .outOfRange(type: type, field: field, value: Int(raw))
        }
        return value
    }
}

/// Appends little-endian fields to a payload being built.
struct PayloadWriter {
    var bytes: [UInt8]

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func i8(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func append<C: Collection>(_ data: C) where C.Element == UInt8 {
        bytes.append(contentsOf: data)
    }
}
