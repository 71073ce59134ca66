import FairFuelCore
import FairFuelLink
import Testing
import TestSupport

/// The test vectors of PROTOCOL.md, both directions.
@Suite struct SpecVectorTests {
    @Test func crcCheckValue() {
        #expect(CRC16.checksum(Array("123456789".utf8)) == 0x29B1)
    }

    // Computed independently (Python, bit-by-bit CRC and a reference COBS).
    static let heartbeatBody: [UInt8] = [0x01, 0x02, 0x01, 0x00, 0xE8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x38, 0x31, 0x01]
    static let heartbeatWire: [UInt8] = [
        0x04, 0x01, 0x02, 0x01, 0x03, 0xE8, 0x03, 0x01, 0x01, 0x01, 0x06, 0x38, 0x31, 0x01, 0x50, 0x5F, 0x00,
    ]

    @Test func heartbeatEncodes() throws {
        #expect(CRC16.checksum(Self.heartbeatBody) == 0x5F50)
        let message = LinkMessage.heartbeat(
            Heartbeat(uptimeMs: 1000, mcuDropped: 0, supplyMillivolts: 12600, flags: 1))
        #expect(try FrameEncoder.encode(message, seq: 1) == Self.heartbeatWire)
        var encoder = FrameEncoder(firstSeq: 1)
        #expect(try encoder.encode(message) == Self.heartbeatWire)
        #expect(encoder.nextSeq == 2)
    }

    @Test func heartbeatDecodes() throws {
        var decoder = FrameDecoder(sender: .mcu)
        var frames: [Frame] = []
        decoder.decode(Self.heartbeatWire) { if case let .frame(f) = $0 { frames.append(f) } }
        #expect(frames.count == 1)
        let frame = try #require(frames.first)
        #expect(frame.seq == 1)
        guard case let .heartbeat(heartbeat) = frame.message else {
            Issue.record("expected a heartbeat, got \(frame.message)")
            return
        }
        #expect(heartbeat.uptimeMs == 1000)
        #expect(heartbeat.mcuDropped == 0)
        #expect(heartbeat.supplyMillivolts == 12600)
        #expect(heartbeat.ignitionOn)
        #expect(decoder.counters.frames == 1)
        #expect(decoder.counters.errorTotal == 0)
    }

    @Test func cobsOfBodyMatchesWire() {
        var body = Self.heartbeatBody
        body += [0x50, 0x5F]
        #expect(COBS.encode(body) + [0] == Self.heartbeatWire)
        #expect(COBS.decode(Self.heartbeatWire.dropLast()) == body)
    }

    /// Every host-to-MCU command, encoded by the host and decoded by an MCU-side decoder.
    @Test func hostCommandsRoundTrip() throws {
        let commands: [LinkMessage] = [
            .helloRequest(HelloRequest(hostMajor: 1, hostMinor: 0)),
            .bleFilter(BLEFilter(entries: [])),
            .bleFilter(BLEFilter(entries: [
                .address([1, 2, 3, 4, 5, 6]), .iBeaconUUID([UInt8](repeating: 0xAB, count: 16)),
                .eddystoneNamespace([UInt8](repeating: 0, count: 10)),
            ])),
            .nfcWrite(NFCWrite(timeoutSeconds: 30, ndef: [0xD1, 0x01, 0x01, 0x55, 0x00][...])),
            .feedback(.sessionStarted),
            .bootloader,
        ]
        var encoder = FrameEncoder()
        var wire: [UInt8] = []
        for command in commands { try encoder.encode(command, into: &wire) }
        var decoder = FrameDecoder(sender: .host)
        var decoded: [LinkMessage] = []
        decoder.decode(wire) { if case let .frame(f) = $0 { decoded.append(f.message) } }
        #expect(decoded == commands)
        #expect(decoder.counters.frames == UInt64(commands.count))
        #expect(decoder.counters.errorTotal == 0)
    }

    @Test func bootloaderMagicIsFLSH() {
        let magic = Bootloader.magic
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: magic >> UInt32(8 * $0)) }
        #expect(bytes == Array("FLSH".utf8))
    }
}

@Suite struct CRC16Tests {
    /// The sliced fast path agrees with the byte-at-a-time definition at every length.
    @Test func slicedMatchesBytewise() {
        var generator = SeededGenerator(seed: 11)
        for length in 0...300 {
            let bytes = generator.bytes(length)
            var bytewise = CRC16()
            for byte in bytes { bytewise.update(byte) }
            #expect(CRC16.checksum(bytes.span) == bytewise.value, "length \(length)")
        }
        #expect(CRC16.checksum(Array("123456789".utf8).span) == 0x29B1)
    }
}
