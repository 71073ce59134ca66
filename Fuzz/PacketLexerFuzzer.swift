// libFuzzer target for the GNSS packet lexer and the stream decoder behind it.
// Built by scripts/fuzz-lexer.sh.
//
// Properties checked on every input, besides "does not crash":
// - every byte is decided: packet, line end or garbage (`isConsistent`), and
//   `bytes` counts the input;
// - feeding whole, byte by byte and in chunks chosen by the input gives the same
//   packets and counters;
// - an NMEA packet starts with `$` or `!` and never holds CR or LF; a binary packet
//   starts with its sync bytes;
// - the fixes decoded from the stream have a position exactly when mode is 2D/3D.
import FairFuelParsers

struct Lexed: Equatable {
    var kind: GNSSPacketKind
    var bytes: [UInt8]
}

func lex(_ bytes: [UInt8], chunk: (Int) -> Int) -> ([Lexed], GNSSLexerStats) {
    var lexer = GNSSPacketLexer(maximumPacketBytes: 1024)
    var out: [Lexed] = []
    func drain() {
        while let packet = lexer.next() {
            let copy = lexer.withBytes(of: packet) { span in
                var copy: [UInt8] = []
                for index in span.indices { copy.append(span[index]) }
                return copy
            }
            out.append(Lexed(kind: packet.kind, bytes: copy))
        }
    }
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + chunk(start))
        var offset = start
        while offset < end {
            offset += lexer.feed(bytes.span.extracting(offset..<end))
            drain()
        }
        start = end
    }
    lexer.markEnd()
    drain()
    return (out, lexer.stats)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let (whole, stats) = lex(bytes) { _ in Int.max }
    precondition(stats.isConsistent && stats.bytes == bytes.count, "a byte was not decided")
    let (drip, dripStats) = lex(bytes) { _ in 1 }
    precondition(drip == whole && dripStats == stats, "byte-by-byte feeding changed the output")
    let (chunked, chunkedStats) = lex(bytes) { start in Int(bytes[start] % 61) + 1 }
    precondition(chunked == whole && chunkedStats == stats, "chunking changed the output")
    for packet in whole {
        switch packet.kind {
        case .nmea:
            precondition(packet.bytes.first == 0x24 || packet.bytes.first == 0x21)
            precondition(!packet.bytes.contains(0x0A) && !packet.bytes.contains(0x0D))
        case .ubx: precondition(packet.bytes.starts(with: [0xB5, 0x62]))
        case .casic: precondition(packet.bytes.starts(with: [0xBA, 0xCE]))
        case .sirf: precondition(packet.bytes.starts(with: [0xA0, 0xA2]) && packet.bytes.suffix(2) == [0xB0, 0xB3])
        case .rtcm3: precondition(packet.bytes.first == 0xD3)
        case .garmin: precondition(packet.bytes.first == 0x10 && packet.bytes.suffix(2) == [0x10, 0x03])
        case .comment: precondition(packet.bytes.first == 0x23)
        }
    }
    var decoder = NMEAFixDecoder(configuration: NMEAConfiguration(allowMissingChecksum: bytes.first == 0))
    let check = { (fix: GNSSFix) in
        precondition((fix.mode >= .fix2D) == (fix.latitude != nil && fix.longitude != nil))
        if let speed = fix.speed { precondition(speed.value >= 0 && speed.value.isFinite) }
        _ = fix.jsonLine
    }
    decoder.feed(bytes: bytes[...], emit: check)
    decoder.finish(emit: check)
    precondition(decoder.stats.isConsistent && decoder.lexerStats.isConsistent)
    precondition(decoder.stats.sentences == decoder.lexerStats.nmea)
    return 0
}
