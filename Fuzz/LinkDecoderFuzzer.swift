// libFuzzer target for the link frame decoder. Built by scripts/fuzz-decoder.sh.
//
// Properties checked on every input, besides "does not crash":
// - `frames` counts exactly the delivered frames;
// - decoding whole and in chunks chosen by the input give the same outputs;
// - every delivered frame re-encodes and decodes to the same message.
import FairFuelCore
import FairFuelLink

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for sender in [LinkSide.mcu, LinkSide.host] {
        var whole = FrameDecoder(sender: sender)
        var wholeOutputs: [DecoderOutput] = []
        whole.decode(bytes) { wholeOutputs.append($0) }
        let delivered = wholeOutputs.filter { if case .frame = $0 { true } else { false } }.count
        precondition(whole.counters.frames == UInt64(delivered), "frames counter disagrees")

        var chunked = FrameDecoder(sender: sender)
        var chunkedOutputs: [DecoderOutput] = []
        var start = 0
        var step = 1
        while start < bytes.count {
            let end = min(bytes.count, start + step)
            chunked.decode(bytes[start..<end]) { chunkedOutputs.append($0) }
            step = Int(bytes[start] % 17) + 1
            start = end
        }
        precondition(chunkedOutputs == wholeOutputs, "chunking changed the outputs")
        precondition(chunked.counters == whole.counters, "chunking changed the counters")

        for case let .frame(frame) in wholeOutputs {
            guard let wire = try? FrameEncoder.encode(frame.message, seq: frame.seq) else {
                preconditionFailure("a delivered frame does not re-encode")
            }
            var again = FrameDecoder(sender: sender)
            var roundTrip: [Frame] = []
            again.decode(wire) { if case let .frame(f) = $0 { roundTrip.append(f) } }
            precondition(roundTrip == [frame], "re-encoded frame decodes differently")
        }
    }
    return 0
}
