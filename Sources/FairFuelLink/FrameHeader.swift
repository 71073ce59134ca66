/// The one place the frame body's layout is spelled out (PROTOCOL.md, Framing):
///
///     body = version(1) type(1) seq(2, little-endian) payload(0..250) crc(2, little-endian)
///
/// The decoder reads headers with `init(reading:)`, the encoder writes them with
/// `append(to:)`; the CRC trailer and the length limits live here too, so no other
/// type counts offsets into a body.
public struct FrameHeader: Sendable, Equatable, Hashable {
    /// The protocol version this host speaks.
    public static let currentVersion: UInt8 = 1
    /// Bytes before the payload: version, type, seq.
    public static let byteCount = 4
    /// Bytes after the payload: the CRC.
    public static let crcByteCount = 2
    public static let maximumPayloadLength = 250
    /// An empty payload: header and CRC only.
    public static let minimumBodyLength = byteCount + crcByteCount
    public static let maximumBodyLength = byteCount + maximumPayloadLength + crcByteCount
    /// COBS adds one code byte per 254 data bytes (and one at the start): 256 bytes encode to at most 258.
    public static let maximumEncodedLength = maximumBodyLength + (maximumBodyLength + 253) / 254

    public var version: UInt8
    public var type: UInt8
    public var seq: UInt16

    public init(version: UInt8 = FrameHeader.currentVersion, type: UInt8, seq: UInt16) {
        self.version = version
        self.type = type
        self.seq = seq
    }

    /// Reads the header at the start of `body`, which holds at least `byteCount` bytes.
    public init(reading body: Span<UInt8>) {
        precondition(body.count >= FrameHeader.byteCount)
        version = body[0]
        type = body[1]
        seq = UInt16(body[2]) | UInt16(body[3]) << 8
    }

    /// Appends the header's `byteCount` bytes to `bytes`.
    public func append(to bytes: inout [UInt8]) {
        bytes.append(version)
        bytes.append(type)
        bytes.append(UInt8(truncatingIfNeeded: seq))
        bytes.append(UInt8(truncatingIfNeeded: seq >> 8))
    }

    /// Where the payload lies in a body of `bodyLength` bytes.
    public static func payloadRange(bodyLength: Int) -> Range<Int> {
        byteCount..<(bodyLength - crcByteCount)
    }

    /// The CRC a body carries in its last two bytes, and the one computed over the rest.
    public static func crcs(of body: Span<UInt8>) -> (carried: UInt16, computed: UInt16) {
        let end = body.count
        let carried = UInt16(body[end - 2]) | UInt16(body[end - 1]) << 8
        return (carried, CRC16.checksum(body.extracting(0..<(end - crcByteCount))))
    }

    /// Appends the CRC of `body` (header and payload so far) to it, completing the body;
    /// `replacing` writes that value instead (a bad frame for tests and the line-noise simulator).
    public static func appendCRC(to body: inout [UInt8], replacing given: UInt16? = nil) {
        let crc = given ?? CRC16.checksum(body.span)
        body.append(UInt8(truncatingIfNeeded: crc))
        body.append(UInt8(truncatingIfNeeded: crc >> 8))
    }
}
