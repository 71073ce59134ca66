import FairFuelCore
import FairFuelLink
import Testing
import TestSupport

@Suite struct FrameDecoderPropertyTests {
    /// Random bodies of every type and legal size round-trip under every chunking.
    @Test(arguments: Chunking.all)
    func randomMessagesRoundTrip(chunking: Chunking) throws {
        var generator = SeededGenerator(seed: 42)
        var encoder = FrameEncoder(firstSeq: 65_500)  // crosses the 65535 -> 0 wrap
        var wire: [UInt8] = []
        var sent: [Frame] = []
        for _ in 0..<600 {
            let message = RandomMessages.fromMCU(using: &generator)
            let seq = try encoder.encode(message, into: &wire)
            sent.append(Frame(seq: seq, message: message))
        }
        let (outputs, counters) = decodeAll(wire, chunking: chunking)
        let received = frames(outputs)
        #expect(received.count == sent.count)
        for (got, want) in zip(received, sent) where got != want {
            Issue.record("seq \(want.seq): decoded \(got.message), sent \(want.message)")
            break
        }
        let unknownSent = sent.filter { if case .unknown = $0.message { true } else { false } }.count
        #expect(counters.frames == UInt64(sent.count))
        #expect(counters.unknownType == UInt64(unknownSent))
        #expect(counters.errorTotal == UInt64(unknownSent))
    }

    /// Every payload length 0...250 of an unknown type and every body length round-trips.
    @Test func everyPayloadLength() throws {
        var generator = SeededGenerator(seed: 9)
        for length in 0...250 {
            let payload = generator.bytes(length)
            let wire = FrameEncoder.encodeRaw(type: 0x0E, seq: UInt16(length), payload: payload)
            #expect(wire.count <= 259)
            let received = frames(decodeAll(wire).outputs)
            #expect(received == [Frame(seq: UInt16(length), message: .unknown(rawType: 0x0E, payload: payload[...]))])
        }
    }

    /// Bodies made only of zeros or only of non-zeros stress COBS block boundaries.
    @Test(arguments: [UInt8(0), 1, 0xFF])
    func uniformPayloads(fill: UInt8) {
        for length in [0, 1, 247, 248, 249, 250] {
            let payload = [UInt8](repeating: fill, count: length)
            let wire = FrameEncoder.encodeRaw(type: 0x0E, seq: 7, payload: payload)
            for chunking in Chunking.all {
                let received = frames(decodeAll(wire, chunking: chunking).outputs)
                #expect(received.count == 1, "fill \(fill) length \(length) \(chunking)")
                if case let .unknown(_, got)? = received.first?.message { #expect(Array(got) == payload) }
            }
        }
    }

    /// Whole, byte-by-byte and random chunks give identical outputs on a noisy stream.
    @Test func chunkingDoesNotChangeOutputsOnNoise() throws {
        var generator = SeededGenerator(seed: 2024)
        var encoder = FrameEncoder()
        var wire: [UInt8] = []
        for _ in 0..<400 {
            try encoder.encode(RandomMessages.fromMCU(using: &generator), into: &wire)
            if Int.random(in: 0..<4, using: &generator) == 0 {
                wire += generator.bytes(Int.random(in: 0..<400, using: &generator))
            }
            if Int.random(in: 0..<10, using: &generator) == 0, !wire.isEmpty {
                wire[Int.random(in: 0..<wire.count, using: &generator)] ^= 0x5A
            }
        }
        let reference = decodeAll(wire, chunking: .whole)
        for chunking in Chunking.all.dropFirst() {
            let other = decodeAll(wire, chunking: chunking)
            #expect(other.counters == reference.counters, "\(chunking)")
            #expect(other.outputs == reference.outputs, "\(chunking)")
        }
        #expect(reference.counters.frames > 200)
    }
}
