import FairFuelCore
import FairFuelLink
import Testing
import TestSupport

/// The pull shape of the receiver: `append` bytes, `next()` until nil.
@Suite struct PullDecoderTests {
    /// Appends all of `bytes` (as often as the decoder's buffer needs) and pulls every output.
    static func pull(_ bytes: [UInt8], into decoder: inout FrameDecoder) -> [DecoderOutput] {
        var outputs: [DecoderOutput] = []
        var offset = 0
        repeat {
            let taken = decoder.append(bytes.span.extracting(droppingFirst: offset))
            offset += taken
            while let output = decoder.next() { outputs.append(output) }
        } while offset < bytes.count
        return outputs
    }

    static func heartbeat(seq: UInt16) -> [UInt8] {
        FrameEncoder.encodeRaw(type: 0x02, seq: seq, payload: [0xE8, 0x03, 0, 0, 0, 0, 0x38, 0x31, 0x01])
    }

    /// Three frames of different lengths, a zero-heavy one among them.
    static let stream: [UInt8] = heartbeat(seq: 1)
        + FrameEncoder.encodeRaw(type: 0x10, seq: 2, payload: [0, 0, 0, 0] + Array("$GPGGA,1*00".utf8))
        + FrameEncoder.encodeRaw(type: 0x7D, seq: 3, payload: [1] + Array("booted".utf8))

    @Test func framesSplitAcrossTwoAppendsAtEveryByteBoundary() {
        var reference = FrameDecoder(sender: .mcu)
        let expected = Self.pull(Self.stream, into: &reference)
        #expect(frames(expected).map(\.seq) == [1, 2, 3])
        let delimiters = Set(Self.stream.indices.filter { Self.stream[$0] == 0 })
        for split in 0...Self.stream.count {
            var decoder = FrameDecoder(sender: .mcu)
            var outputs = Self.pull(Array(Self.stream[..<split]), into: &decoder)
            // Between the two appends a frame is unfinished unless the cut fell just after a delimiter.
            let cutAfterDelimiter = split == 0 || delimiters.contains(split - 1)
            #expect(decoder.hasUnfinishedFrame == !cutAfterDelimiter, "split \(split)")
            outputs += Self.pull(Array(Self.stream[split...]), into: &decoder)
            #expect(outputs == expected, "split \(split)")
            #expect(decoder.counters == reference.counters, "split \(split)")
            #expect(!decoder.hasUnfinishedFrame)
        }
    }

    @Test func twoFramesInOneAppendComeOutOneAtATime() {
        var decoder = FrameDecoder(sender: .mcu)
        let wire = Self.heartbeat(seq: 7) + Self.heartbeat(seq: 8)
        let taken = decoder.append(wire.span)
        #expect(taken == wire.count)
        guard case let .frame(first)? = decoder.next() else {
            Issue.record("no first frame")
            return
        }
        #expect(first.seq == 7)
        guard case let .frame(second)? = decoder.next() else {
            Issue.record("no second frame")
            return
        }
        #expect(second.seq == 8)
        let third = decoder.next()
        #expect(third == nil)
        #expect(decoder.counters.frames == 2)
    }

    /// A gap gives `lost` before the frame, and an unknown type its anomaly before the frame:
    /// one frame, several outputs, pulled in the spec's order.
    @Test func oneFrameCanGiveSeveralOutputsInOrder() {
        var decoder = FrameDecoder(sender: .mcu)
        let wire = Self.heartbeat(seq: 1) + FrameEncoder.encodeRaw(type: 0x0E, seq: 5, payload: [9])
        let outputs = Self.pull(wire, into: &decoder)
        #expect(outputs.count == 4)
        #expect(outputs.dropFirst().first == .anomaly(.lost(count: 3, seq: 5)))
        #expect(outputs.dropFirst(2).first == .anomaly(.unknownType(0x0E)))
        #expect(outputs.last == .frame(Frame(seq: 5, message: .unknown(rawType: 0x0E, payload: [9]))))
        #expect(decoder.counters.lost == 3 && decoder.counters.unknownType == 1 && decoder.counters.frames == 2)
    }

    /// Garbage, a bad CRC and a truncated COBS run are counted as the receiver rules say, and the
    /// stream recovers on the next delimiter.
    @Test func garbageAndCRCErrorsAreCountedAndTheStreamRecovers() {
        let badCRC = FrameEncoder.encodeRaw(type: 0x02, seq: 2, payload: [0xE8, 0x03, 0, 0, 0, 0, 0x38, 0x31, 0x01], crc: 0x1234)
        let wire = Self.heartbeat(seq: 1)
            + [0x05, 0xAA, 0xBB, 0x00]  // a code past the run's end: cobs_error
            + [0x02, 0x01, 0x00]  // decodes to two bytes: too short, cobs_error
            + badCRC
            + [0x00, 0x00]  // empty frames: ignored
            + Self.heartbeat(seq: 3)
        var decoder = FrameDecoder(sender: .mcu)
        let outputs = Self.pull(wire, into: &decoder)
        #expect(frames(outputs).map(\.seq) == [1, 3])
        #expect(decoder.counters.cobsError == 2)
        #expect(decoder.counters.crcError == 1)
        #expect(decoder.counters.frames == 2)
        #expect(decoder.counters.lost == 1, "seq 2 died with its CRC")
        #expect(outputs.contains { if case .anomaly(.crcError(_, 0x1234)) = $0 { true } else { false } })
    }

    @Test func aFrameAtTheMaximumLengthIsDelivered() {
        // 250 non-zero payload bytes and a seq and CRC without a zero byte: the body is 256
        // bytes and COBS needs its largest overhead.
        let payload = [UInt8](repeating: 0x41, count: FrameHeader.maximumPayloadLength)
        let seq = (UInt16(0x0101)...0xFFFF).first { FrameEncoder.encodeRaw(type: 0x0E, seq: $0, payload: payload).count == 259 }
        guard let seq else {
            Issue.record("no seq gives a 258-byte encoding")
            return
        }
        let wire = FrameEncoder.encodeRaw(type: 0x0E, seq: seq, payload: payload)
        #expect(wire.count == FrameHeader.maximumEncodedLength + 1)
        for chunking in Chunking.all {
            var decoder = FrameDecoder(sender: .mcu)
            var outputs: [DecoderOutput] = []
            for chunk in chunking.chunks(of: wire) { outputs += Self.pull(Array(chunk), into: &decoder) }
            #expect(frames(outputs) == [Frame(seq: seq, message: .unknown(rawType: 0x0E, payload: payload[...]))], "\(chunking)")
            #expect(decoder.counters.oversize == 0)
        }
    }

    @Test func anOversizeRunIsCountedOnceAndDroppedThroughTheNextDelimiter() {
        // One byte more than a frame may hold before its delimiter, then more of the same run.
        let run = [UInt8](repeating: 0x41, count: FrameHeader.maximumEncodedLength + 40)
        let wire = Self.heartbeat(seq: 1) + run + [0] + Self.heartbeat(seq: 2)
        for chunking in Chunking.all {
            var decoder = FrameDecoder(sender: .mcu)
            var outputs: [DecoderOutput] = []
            for chunk in chunking.chunks(of: wire) { outputs += Self.pull(Array(chunk), into: &decoder) }
            #expect(outputs == [
                .frame(Frame(seq: 1, message: decodedHeartbeat)), .anomaly(.oversize), .frame(Frame(seq: 2, message: decodedHeartbeat)),
            ], "\(chunking)")
            #expect(decoder.counters.oversize == 1)
        }
    }

    /// 258 encoded bytes can still decode to a 257-byte body (a zero inside saves a code byte):
    /// a non-conforming sender's frame, oversize rather than a COBS error.
    @Test func aBodyOverTheMaximumIsOversize() throws {
        var body = [UInt8](repeating: 0x41, count: FrameHeader.maximumBodyLength + 1)
        body[200] = 0
        let encoded = COBS.encode(body)
        #expect(encoded.count == FrameHeader.maximumEncodedLength)
        var decoder = FrameDecoder(sender: .mcu)
        let outputs = Self.pull(encoded + [0] + Self.heartbeat(seq: 9), into: &decoder)
        #expect(outputs == [.anomaly(.oversize), .frame(Frame(seq: 9, message: decodedHeartbeat))])
        #expect(decoder.counters.oversize == 1 && decoder.counters.cobsError == 0)
    }

    /// More bytes than the buffer holds: `append` takes what fits, `next()` makes room.
    @Test func appendTakesWhatFitsAndTheRestFollows() {
        var wire: [UInt8] = []
        for seq in 1...600 { wire += Self.heartbeat(seq: UInt16(seq)) }
        #expect(wire.count > LinkFramer.inputCapacity)
        var decoder = FrameDecoder(sender: .mcu)
        let firstTake = decoder.append(wire.span)
        #expect(firstTake == LinkFramer.inputCapacity)
        let secondTake = decoder.append(wire.span.extracting(droppingFirst: firstTake))
        #expect(secondTake == 0, "full until pulled")
        var delivered = 0
        while let output = decoder.next() { if case .frame = output { delivered += 1 } }
        delivered += frames(Self.pull(Array(wire[firstTake...]), into: &decoder)).count
        #expect(delivered == 600)
        #expect(decoder.counters.frames == 600 && decoder.counters.errorTotal == 0)
    }

    private var decodedHeartbeat: LinkMessage {
        .heartbeat(Heartbeat(uptimeMs: 1000, mcuDropped: 0, supplyMillivolts: 12_600, flags: 1))
    }
}
