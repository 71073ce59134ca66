import FairFuelCore
import FairFuelLink
import Testing
import TestSupport

@Suite struct FrameHeaderTests {
    @Test func headerRoundTripsThroughItsBytes() {
        var generator = SeededGenerator(seed: 31)
        var cases: [FrameHeader] = [
            FrameHeader(type: 0x02, seq: 0), FrameHeader(type: 0x7F, seq: 0xFFFF), FrameHeader(version: 0, type: 0, seq: 0x0100),
            FrameHeader(version: 0xFF, type: 0xFF, seq: 0x00FF),
        ]
        for _ in 0..<200 {
            cases.append(FrameHeader(
                version: UInt8.random(in: 0...255, using: &generator), type: UInt8.random(in: 0...255, using: &generator),
                seq: UInt16.random(in: 0...0xFFFF, using: &generator)))
        }
        for header in cases {
            var bytes: [UInt8] = []
            header.append(to: &bytes)
            #expect(bytes.count == FrameHeader.byteCount)
            #expect(FrameHeader(reading: bytes.span) == header)
        }
    }

    /// The spec's HEARTBEAT vector: version 1, type 2, seq 1 little-endian, then the payload and CRC.
    @Test func layoutMatchesTheSpecVector() {
        let payload: [UInt8] = [0xE8, 0x03, 0, 0, 0, 0, 0x38, 0x31, 0x01]
        var body: [UInt8] = []
        FrameHeader(type: 0x02, seq: 1).append(to: &body)
        #expect(body == [0x01, 0x02, 0x01, 0x00])
        body += payload
        FrameHeader.appendCRC(to: &body)
        #expect(body.count == 15)
        #expect(Array(body[FrameHeader.payloadRange(bodyLength: body.count)]) == payload)
        let crcs = FrameHeader.crcs(of: body.span)
        #expect(crcs.carried == crcs.computed)
        #expect(crcs.computed == CRC16.checksum(body.dropLast(2)))
        // The encoder writes the same body.
        let wire = FrameEncoder.encodeRaw(type: 0x02, seq: 1, payload: payload)
        #expect(COBS.decode(wire.dropLast()) == body)
    }

    @Test func aReplacedCRCIsCarriedAsGiven() {
        var body: [UInt8] = []
        FrameHeader(type: 0x10, seq: 513).append(to: &body)
        FrameHeader.appendCRC(to: &body, replacing: 0xBEEF)
        #expect(Array(body.suffix(2)) == [0xEF, 0xBE])
        let crcs = FrameHeader.crcs(of: body.span)
        #expect(crcs.carried == 0xBEEF && crcs.computed != 0xBEEF)
    }

    @Test func limitsAreThoseOfTheProtocol() {
        #expect(FrameHeader.minimumBodyLength == 6)
        #expect(FrameHeader.maximumBodyLength == 256)
        #expect(FrameHeader.maximumEncodedLength == 258)
        #expect(FrameEncoder.maximumPayloadLength == FrameHeader.maximumPayloadLength)
    }

    /// The span decoder, the one COBS decoder, refuses what does not fit and agrees with the whole-buffer form.
    @Test func cobsSpanDecoderRefusesAShortOutputAndAgreesWithTheWholeForm() {
        var generator = SeededGenerator(seed: 5)
        for length in [0, 1, 5, 253, 254, 255, 300] {
            let bytes = generator.bytes(length)
            let encoded = COBS.encode(bytes)
            #expect(COBS.decode(encoded) == bytes, "length \(length)")
            var exact = [UInt8](repeating: 0, count: length)
            var decoded: Int?
            do {
                var output = exact.mutableSpan
                decoded = COBS.decode(encoded.span, into: &output)
            }
            #expect(decoded == length && exact == bytes, "length \(length)")
            guard length > 0 else { continue }
            var short = [UInt8](repeating: 0, count: length - 1)
            var refused: Int?
            do {
                var output = short.mutableSpan
                refused = COBS.decode(encoded.span, into: &output)
            }
            #expect(refused == nil, "length \(length)")
        }
        #expect(COBS.decode([0x03, 0x41, 0x00]) == nil, "a 0x00 inside")
        #expect(COBS.decode([0x00, 0x41]) == nil, "a code of 0")
        #expect(COBS.decode([0x05, 0x41]) == nil, "a code past the end")
    }
}
