import FairFuelCore
import FairFuelLink
import Testing

/// The link is little-endian on the wire whatever the host's byte order: the payload reader
/// and writer assemble each field from its bytes, never by loading host-order integers.
/// Frames here are built byte by byte from PROTOCOL.md's layout (type, seq, payload, CRC-16
/// little-endian, COBS, 0x00), with fields whose bytes all differ and whose top bit is set,
/// so a swapped, truncated or sign-extended field cannot pass.
@Suite struct ByteOrderTests {
    /// A wire frame from a frame body (version, type, seq, payload), CRC appended low byte first.
    static func wire(_ body: [UInt8]) -> [UInt8] {
        let crc = CRC16.checksum(body)
        return COBS.encode(body + [UInt8(crc & 0xFF), UInt8(crc >> 8)]) + [0]
    }

    static func decodeOne(_ wire: [UInt8]) throws -> Frame {
        var decoder = FrameDecoder(sender: .mcu)
        var frames: [Frame] = []
        decoder.decode(wire) { if case let .frame(frame) = $0 { frames.append(frame) } }
        #expect(decoder.counters.errorTotal == 0)
        return try #require(frames.count == 1 ? frames.first : nil)
    }

    // Heartbeat: uptime u32 0xFEDCBA98, dropped u16 0x8A34, supply u16 12600 mV, flags 1; seq 0x8102.
    static let heartbeatBody: [UInt8] = [
        0x01, 0x02, 0x02, 0x81, 0x98, 0xBA, 0xDC, 0xFE, 0x34, 0x8A, 0x38, 0x31, 0x01,
    ]

    @Test func decodesLittleEndianFieldsAboveTheSignedRange() throws {
        let frame = try Self.decodeOne(Self.wire(Self.heartbeatBody))
        #expect(frame.seq == 0x8102)
        guard case let .heartbeat(heartbeat) = frame.message else {
            Issue.record("expected a heartbeat, got \(frame.message)")
            return
        }
        #expect(heartbeat.uptimeMs == 0xFEDC_BA98)
        #expect(heartbeat.mcuDropped == 0x8A34)
        #expect(heartbeat.supplyMillivolts == 12600)
    }

    @Test func encodesLittleEndianFields() throws {
        let message = LinkMessage.heartbeat(
            Heartbeat(uptimeMs: 0xFEDC_BA98, mcuDropped: 0x8A34, supplyMillivolts: 12600, flags: 1))
        #expect(try FrameEncoder.encode(message, seq: 0x8102) == Self.wire(Self.heartbeatBody))
    }

    /// The CRC goes low byte first: the same body with the CRC's bytes swapped is refused.
    @Test func crcIsLittleEndianOnTheWire() {
        let crc = CRC16.checksum(Self.heartbeatBody)
        #expect(crc & 0xFF != crc >> 8, "the vector needs a CRC whose two bytes differ")
        let swapped = COBS.encode(Self.heartbeatBody + [UInt8(crc >> 8), UInt8(crc & 0xFF)]) + [0]
        var decoder = FrameDecoder(sender: .mcu)
        var frames = 0
        decoder.decode(swapped) { if case .frame = $0 { frames += 1 } }
        #expect(frames == 0)
        #expect(decoder.counters.errorTotal == 1)
    }

    /// Every u32 time the MCU sends, round-tripped at the values a 32-bit signed reading would break.
    @Test(arguments: [UInt32(0), 1, 0x7FFF_FFFF, 0x8000_0000, 0xFEDC_BA98, UInt32.max])
    func mcuTimesRoundTripAtTheEdges(timeMs: UInt32) throws {
        let message = LinkMessage.power(PowerReport(mcuTimeMs: timeMs, ignitionOn: true, supplyMillivolts: 0xFFFF))
        let frame = try Self.decodeOne(FrameEncoder.encode(message, seq: 7))
        #expect(frame.message == message)
    }
}
