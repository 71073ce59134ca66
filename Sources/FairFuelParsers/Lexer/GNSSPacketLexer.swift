/// Splits a receiver's byte stream into whole packets, after gpsd's packet lexer:
/// NMEA/AIS sentences and the binary framings receivers interleave with them
/// (UBX, CASIC, SiRF, RTCM 3, Garmin), each recognised by its sync bytes, length
/// and checksum; bytes that belong to no packet are counted as garbage.
///
/// Pull-based, in the manner of a swift-nio decoder: `feed` copies bytes in,
/// `next()` hands out the next whole packet or nil when it needs more bytes,
/// `markEnd()` says no more bytes follow (the end of a file or of a link frame),
/// after which `next()` decides every pending byte.
///
/// Resynchronisation, as in gpsd: a binary candidate whose checksum, trailer or
/// length fails, or that the input ends inside, is not a packet: its first sync
/// byte is garbage and scanning resumes one byte after it, so the NMEA sentences
/// a bogus length field seemed to cover are still found. An NMEA sentence ends at
/// CR or LF; a byte that may not appear in one (a binary sync, a second `$`)
/// ends it early, whole if it has its `*HH` by then, else counted as truncated.
/// A `#` at the start of a line starts a log comment, up to the LF (control bytes
/// other than TAB and CR make it garbage instead).
///
/// Nothing is allocated after `init`: the buffer holds `maximumPacketBytes` twice,
/// and a binary length field above `maximumPacketBytes` is refused at once.
/// The output does not depend on how the input is split between `feed` calls.
public struct GNSSPacketLexer: Sendable {
    /// Longest packet recognised by default: UBX RXM-RAWX and NAV-SAT for 100+ signals fit.
    public static let defaultMaximumPacketBytes = 4096
    /// Longest `#` comment line.
    public static let maximumCommentBytes = 1024

    /// A packet handed out by `next()`: its kind and where its bytes are in the buffer
    /// (valid until the next `feed`; read them with `withBytes(of:_:)`).
    public struct Packet: Sendable, Equatable {
        public var kind: GNSSPacketKind
        public var range: Range<Int>
    }

    public let maximumPacketBytes: Int
    public private(set) var stats = GNSSLexerStats()

    private var buffer: [UInt8]
    /// Pending bytes are `buffer[head..<tail]`.
    private var head = 0
    private var tail = 0
    private var atEnd = false
    /// The last byte decided was an LF (or nothing was decided yet): a `#` starts a comment.
    private var atLineStart = true

    /// `maximumPacketBytes` is raised to at least `maximumCommentBytes` and the longest NMEA sentence.
    public init(maximumPacketBytes: Int = GNSSPacketLexer.defaultMaximumPacketBytes) {
        self.maximumPacketBytes = max(
            maximumPacketBytes, GNSSPacketLexer.maximumCommentBytes, NMEAParser.maximumSentenceBytes + 2)
        buffer = [UInt8](repeating: 0, count: 2 * self.maximumPacketBytes)
    }

    /// Bytes waiting for a decision.
    public var pendingByteCount: Int { tail - head }

    /// Copies as many of `bytes` as fit and returns how many were taken; never 0 for
    /// non-empty input once `next()` has returned nil.
    public mutating func feed(_ bytes: Span<UInt8>) -> Int {
        atEnd = false
        if head > 0 {
            let (start, pending) = (head, tail - head)
            var storage = buffer.mutableSpan
            for index in 0..<pending { storage[unchecked: index] = storage[unchecked: start &+ index] }
            head = 0
            tail = pending
        }
        let end = tail
        let taken = min(bytes.count, buffer.count - end)
        var storage = buffer.mutableSpan
        for index in 0..<taken { storage[unchecked: end &+ index] = bytes[unchecked: index] }
        tail = end + taken
        stats.bytes += taken
        return taken
    }

    /// Says that no more bytes follow for now (end of file, end of a frame):
    /// `next()` then decides every pending byte. The next `feed` starts afresh.
    public mutating func markEnd() {
        atEnd = true
    }

    /// Calls `body` with the bytes of a packet `next()` returned (before the next `feed`).
    public func withBytes<Result>(of packet: Packet, _ body: (Span<UInt8>) -> Result) -> Result {
        body(buffer.span.extracting(packet.range))
    }

    /// The next whole packet, or nil when the pending bytes are not enough to decide.
    public mutating func next() -> Packet? {
        while head < tail {
            let byte = buffer[head]
            let step: Step
            switch byte {
            case 0x24, 0x21: step = scanNMEA()  // $ !
            case 0xB5: step = scanUBX()
            case 0xBA: step = scanCASIC()
            case 0xA0: step = scanSiRF()
            case 0xD3: step = scanRTCM3()
            case 0x10: step = scanGarmin()  // DLE
            case 0x23 where atLineStart: step = scanComment()  // #
            case 0x0A:
                stats.lineEndBytes += 1
                head += 1
                atLineStart = true
                continue
            case 0x0D:
                stats.lineEndBytes += 1
                head += 1
                continue
            default:
                stats.garbageBytes += 1
                head += 1
                atLineStart = false
                continue
            }
            switch step {
            case .packet(let kind, let end):
                return accept(kind, end)
            case .truncated(let end):
                stats.truncatedNMEA += 1
                stats.garbageBytes += end - head
                head = end
                atLineStart = false
            case .reject:
                reject(byte)
            case .needMore:
                guard atEnd else { return nil }
                switch byte {
                case 0x24, 0x21: return accept(.nmea, tail)
                case 0x23: return accept(.comment, tail)
                default: reject(byte)
                }
            }
        }
        return nil
    }

    /// Forgets pending bytes (after the receiver was reset); counters are kept.
    public mutating func reset() {
        head = 0
        tail = 0
        atEnd = false
        atLineStart = true
    }

    private enum Step {
        case packet(GNSSPacketKind, end: Int)
        /// An NMEA sentence cut before its end; `end` is where scanning resumes.
        case truncated(end: Int)
        /// Not a packet: the first byte is garbage, scanning resumes after it.
        case reject
        case needMore
    }

    private mutating func accept(_ kind: GNSSPacketKind, _ end: Int) -> Packet {
        let packet = Packet(kind: kind, range: head..<end)
        stats[kind] += 1
        stats.packetBytes += end - head
        head = end
        atLineStart = false
        return packet
    }

    private mutating func reject(_ byte: UInt8) {
        if byte != 0x23 { stats.rejectedBinary += 1 }
        stats.garbageBytes += 1
        head += 1
        atLineStart = false
    }

    // MARK: - Recognisers: each looks at buffer[head...] and decides or asks for more.

    /// `$`/`!` up to CR or LF; at most `NMEAParser.maximumSentenceBytes`.
    private func scanNMEA() -> Step {
        let bytes = buffer.span
        let longest = head &+ NMEAParser.maximumSentenceBytes
        let limit = min(tail, longest &+ 1)
        var index = head &+ 1
        while index < limit {
            let byte = bytes[unchecked: index]
            if byte == 0x0D || byte == 0x0A { return .packet(.nmea, end: index) }
            if byte &- 0x20 > 0x5E || byte == 0x24 {
                if index &- head >= 4 && bytes[unchecked: index &- 3] == 0x2A { return .packet(.nmea, end: index) }
                return .truncated(end: index)
            }
            index &+= 1
        }
        if index > longest { return .truncated(end: index) }
        return .needMore
    }

    /// `#` up to LF, printable text (UTF-8 allowed).
    private func scanComment() -> Step {
        let bytes = buffer.span
        let longest = head &+ GNSSPacketLexer.maximumCommentBytes
        let limit = min(tail, longest)
        var index = head &+ 1
        while index < limit {
            let byte = bytes[unchecked: index]
            if byte == 0x0A { return .packet(.comment, end: index) }
            if (byte < 0x20 && byte != 0x09 && byte != 0x0D) || byte == 0x7F { return .reject }
            index &+= 1
        }
        if index >= longest { return .reject }
        return .needMore
    }

    /// `B5 62` class id length(LE16) payload CK_A CK_B; Fletcher-8 over class..payload.
    private func scanUBX() -> Step {
        let bytes = buffer.span
        let available = tail &- head
        guard available >= 2 else { return .needMore }
        guard bytes[unchecked: head &+ 1] == 0x62 else { return .reject }
        guard available >= 6 else { return .needMore }
        let length = Int(bytes[unchecked: head &+ 4]) | Int(bytes[unchecked: head &+ 5]) << 8
        let total = length &+ 8
        guard total <= maximumPacketBytes else { return .reject }
        guard available >= total else { return .needMore }
        var a: UInt8 = 0
        var b: UInt8 = 0
        for index in (head &+ 2)..<(head &+ 6 &+ length) {
            a &+= bytes[unchecked: index]
            b &+= a
        }
        guard a == bytes[unchecked: head &+ 6 &+ length], b == bytes[unchecked: head &+ 7 &+ length] else {
            return .reject
        }
        return .packet(.ubx, end: head &+ total)
    }

    /// `BA CE` length(LE16) class id payload checksum(LE32). The checksum is
    /// (id << 24) + (class << 16) + length plus the payload's little-endian
    /// 32-bit words, as receivers compute it (the protocol document swaps class
    /// and id); the payload is a multiple of 4 bytes.
    private func scanCASIC() -> Step {
        let bytes = buffer.span
        let available = tail &- head
        guard available >= 2 else { return .needMore }
        guard bytes[unchecked: head &+ 1] == 0xCE else { return .reject }
        guard available >= 6 else { return .needMore }
        let length = Int(bytes[unchecked: head &+ 2]) | Int(bytes[unchecked: head &+ 3]) << 8
        let total = length &+ 10
        guard length % 4 == 0, total <= maximumPacketBytes else { return .reject }
        guard available >= total else { return .needMore }
        var sum = UInt32(bytes[unchecked: head &+ 5]) << 24 &+ UInt32(bytes[unchecked: head &+ 4]) << 16
            &+ UInt32(length)
        var index = head &+ 6
        let end = index &+ length
        while index < end {
            sum &+= GNSSPacketLexer.littleEndian32(bytes, index)
            index &+= 4
        }
        guard sum == GNSSPacketLexer.littleEndian32(bytes, end) else { return .reject }
        return .packet(.casic, end: head &+ total)
    }

    /// `A0 A2` length(BE, 15 bits) payload checksum(BE, 15 bits: sum of payload bytes) `B0 B3`.
    private func scanSiRF() -> Step {
        let bytes = buffer.span
        let available = tail &- head
        guard available >= 2 else { return .needMore }
        guard bytes[unchecked: head &+ 1] == 0xA2 else { return .reject }
        guard available >= 4 else { return .needMore }
        let high = bytes[unchecked: head &+ 2]
        guard high & 0x80 == 0 else { return .reject }
        let length = Int(high) << 8 | Int(bytes[unchecked: head &+ 3])
        let total = length &+ 8
        guard length > 0, total <= maximumPacketBytes else { return .reject }
        guard available >= total else { return .needMore }
        var sum = 0
        for index in (head &+ 4)..<(head &+ 4 &+ length) { sum &+= Int(bytes[unchecked: index]) }
        let trailer = head &+ 4 &+ length
        let given = Int(bytes[unchecked: trailer]) << 8 | Int(bytes[unchecked: trailer &+ 1])
        guard sum & 0x7FFF == given, bytes[unchecked: trailer &+ 2] == 0xB0, bytes[unchecked: trailer &+ 3] == 0xB3
        else { return .reject }
        return .packet(.sirf, end: head &+ total)
    }

    /// `D3`, 6 reserved zero bits, 10-bit length, payload, CRC-24Q (big-endian) over all before it.
    private func scanRTCM3() -> Step {
        let bytes = buffer.span
        let available = tail &- head
        guard available >= 3 else { return available >= 2 && bytes[unchecked: head &+ 1] & 0xFC != 0 ? .reject : .needMore }
        let flags = bytes[unchecked: head &+ 1]
        guard flags & 0xFC == 0 else { return .reject }
        let length = Int(flags & 0x03) << 8 | Int(bytes[unchecked: head &+ 2])
        let total = length &+ 6
        guard total <= maximumPacketBytes else { return .reject }
        guard available >= total else { return .needMore }
        let end = head &+ 3 &+ length
        let crc = GNSSPacketLexer.crc24q(bytes, head..<end)
        let given = UInt32(bytes[unchecked: end]) << 16 | UInt32(bytes[unchecked: end &+ 1]) << 8
            | UInt32(bytes[unchecked: end &+ 2])
        guard crc == given else { return .reject }
        return .packet(.rtcm3, end: head &+ total)
    }

    /// `DLE` id size data checksum `DLE ETX`; a DLE among size, data and checksum
    /// is sent twice. id, size, data and checksum sum to 0 (mod 256).
    private func scanGarmin() -> Step {
        let bytes = buffer.span
        let dle: UInt8 = 0x10
        let etx: UInt8 = 0x03
        guard tail &- head >= 2 else { return .needMore }
        let id = bytes[unchecked: head &+ 1]
        guard id != dle, id != etx else { return .reject }
        var index = head &+ 2
        var sum = id
        var size = -1
        var remaining = 0
        // size, then `size` data bytes, then the checksum: remaining counts the data and the checksum.
        while true {
            guard index < tail else { return .needMore }
            let byte = bytes[unchecked: index]
            if byte == dle {
                guard index &+ 1 < tail else { return .needMore }
                guard bytes[unchecked: index &+ 1] == dle else { return .reject }
                index &+= 2
            } else {
                index &+= 1
            }
            sum &+= byte
            if size < 0 {
                size = Int(byte)
                remaining = size &+ 1
            } else {
                remaining &-= 1
                if remaining == 0 { break }
            }
        }
        guard sum == 0 else { return .reject }
        guard index &+ 2 <= tail else {
            return index < tail && bytes[unchecked: index] != dle ? .reject : .needMore
        }
        guard bytes[unchecked: index] == dle, bytes[unchecked: index &+ 1] == etx else { return .reject }
        return .packet(.garmin, end: index &+ 2)
    }

    @inline(__always)
    private static func littleEndian32(_ bytes: Span<UInt8>, _ index: Int) -> UInt32 {
        UInt32(bytes[unchecked: index]) | UInt32(bytes[unchecked: index &+ 1]) << 8
            | UInt32(bytes[unchecked: index &+ 2]) << 16 | UInt32(bytes[unchecked: index &+ 3]) << 24
    }

    /// CRC-24Q (RTCM 3, Qualcomm): polynomial 0x1864CFB, initial value 0, no final XOR.
    static func crc24q(_ bytes: Span<UInt8>, _ range: Range<Int>) -> UInt32 {
        var crc: UInt32 = 0
        for index in range {
            crc ^= UInt32(bytes[unchecked: index]) << 16
            for _ in 0..<8 {
                crc <<= 1
                if crc & 0x100_0000 != 0 { crc ^= 0x186_4CFB }
            }
        }
        return crc & 0xFF_FFFF
    }
}
