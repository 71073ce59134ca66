/// Why a message could not be framed.
public enum FrameEncodeError: Error, Sendable, Equatable, CustomStringConvertible {
    case payloadTooLong(type: UInt8, length: Int)

    public var description: String {
        switch self {
        case let .payloadTooLong(type, length):
            "payload of \(length) bytes for type 0x\(String(type, radix: 16)) exceeds 250"
        }
    }
}

/// Frames messages for the wire: body, CRC, COBS and delimiter, with this sender's sequence.
public struct FrameEncoder: Sendable {
    public static let maximumPayloadLength = FrameHeader.maximumPayloadLength

    /// The seq the next frame will carry.
    public private(set) var nextSeq: UInt16
    private var body: [UInt8] = []

    public init(firstSeq: UInt16 = 0) {
        nextSeq = firstSeq
        body.reserveCapacity(FrameHeader.maximumBodyLength)
    }

    /// Appends the framed `message` to `wire` and returns the seq it used.
    @discardableResult
    public mutating func encode(_ message: LinkMessage, into wire: inout [UInt8]) throws(FrameEncodeError)
        -> UInt16
    {
        let seq = nextSeq
        try FrameEncoder.encode(message, seq: seq, into: &wire, scratch: &body)
        nextSeq &+= 1
        return seq
    }

    /// The framed `message` as bytes; advances the sequence.
    public mutating func encode(_ message: LinkMessage) throws(FrameEncodeError) -> [UInt8] {
        var wire: [UInt8] = []
        try encode(message, into: &wire)
        return wire
    }

    /// Frames `message` with an explicit `seq` (a resend uses the original seq).
    public static func encode(_ message: LinkMessage, seq: UInt16) throws(FrameEncodeError) -> [UInt8] {
        var wire: [UInt8] = []
        var scratch: [UInt8] = []
        try encode(message, seq: seq, into: &wire, scratch: &scratch)
        return wire
    }

    static func encode(
        _ message: LinkMessage, seq: UInt16, into wire: inout [UInt8], scratch: inout [UInt8]
    ) throws(FrameEncodeError) {
        var writer = PayloadWriter(bytes: scratch)
        writer.bytes.removeAll(keepingCapacity: true)
        scratch = []  // hand the buffer to the writer without a copy
        FrameHeader(type: message.rawType, seq: seq).append(to: &writer.bytes)
        message.writePayload(to: &writer)
        let payloadLength = writer.bytes.count - FrameHeader.byteCount
        guard payloadLength <= maximumPayloadLength else {
            scratch = writer.bytes
            throw .payloadTooLong(type: message.rawType, length: payloadLength)
        }
        FrameHeader.appendCRC(to: &writer.bytes)
        COBS.encode(writer.bytes, into: &wire)
        wire.append(0)
        scratch = writer.bytes
    }

    /// Frames a raw body as given (any version, type or payload length; the CRC
    /// is computed unless `crc` is given). For tests and the line-noise simulator.
    public static func encodeRaw(
        version: UInt8 = 1, type: UInt8, seq: UInt16, payload: [UInt8], crc: UInt16? = nil
    ) -> [UInt8] {
        var body: [UInt8] = []
        FrameHeader(version: version, type: type, seq: seq).append(to: &body)
        body.append(contentsOf: payload)
        FrameHeader.appendCRC(to: &body, replacing: crc)
        var wire = COBS.encode(body)
        wire.append(0)
        return wire
    }
}
