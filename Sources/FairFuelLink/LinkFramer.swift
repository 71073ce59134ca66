/// What `LinkFramer.next()` hands out: a body that passed the framing checks, or why one did not.
public enum FramingOutput: Sendable, Equatable {
    /// A body that passed COBS, length and CRC: its header, and where its payload lies in `LinkFramer.body`.
    case body(FrameHeader, payload: Range<Int>)
    /// `.oversize`, `.cobsError` or `.crcError`.
    case anomaly(LinkAnomaly)
}

/// The framing half of the receiver (PROTOCOL.md, Framing): splits the byte stream at each
/// 0x00, COBS-decodes the run before it, and checks its length and CRC. What the body
/// means (sequence, version, type, payload) is `FrameDecoder`'s business.
///
/// Pull-based, as `GNSSPacketLexer` is: `append` copies bytes in, `next()` hands out the
/// next body or anomaly, or nil when it needs more bytes. Storage is fixed at init (an input
/// buffer of a few frames and one body), so framing allocates nothing.
public struct LinkFramer: Sendable {
    /// Bytes `append` can hold: a receive ring's worth, many frames of the largest size (at
    /// least one with its delimiter is what `append` needs to always take a byte after `next()`).
    public static let inputCapacity = 4096

    // Appended bytes not yet framed are `input[head..<tail]`; `input[head..<scanned]` holds no 0x00.
    private var input: [UInt8]
    private var head = 0
    private var tail = 0
    private var scanned = 0
    // After an oversize run: skip through the next 0x00.
    private var discarding = false
    /// The body `next()` handed out last (valid until the next call of `next()`).
    public private(set) var body: [UInt8]

    public init() {
        input = [UInt8](repeating: 0, count: LinkFramer.inputCapacity)
        // COBS of 258 bytes decodes to at most 257: one past the largest legal body.
        body = [UInt8](repeating: 0, count: FrameHeader.maximumBodyLength + 1)
    }

    /// True when bytes wait for a delimiter (read after `next()` returned nil: a frame is unfinished).
    public var hasUnfinishedFrame: Bool { tail > head || discarding }

    /// Forgets every byte appended and not yet framed.
    public mutating func restart() {
        head = 0
        tail = 0
        scanned = 0
        discarding = false
    }

    /// Copies as many of `bytes` as fit and returns how many were taken; never 0 for
    /// non-empty input once `next()` has returned nil.
    public mutating func append(_ bytes: Span<UInt8>) -> Int {
        if head > 0 {
            let (start, pending) = (head, tail - head)
            var storage = input.mutableSpan
            for index in 0..<pending { storage[unchecked: index] = storage[unchecked: start &+ index] }
            scanned -= start
            head = 0
            tail = pending
        }
        let end = tail
        let taken = min(bytes.count, input.count - end)
        var storage = input.mutableSpan
        for index in 0..<taken { storage[unchecked: end &+ index] = bytes[unchecked: index] }
        tail = end + taken
        return taken
    }

    /// The next framed body or framing anomaly, in stream order; nil when the bytes appended
    /// so far hold no more delimiters. Empty frames (0x00 after 0x00) are skipped, not counted.
    public mutating func next() -> FramingOutput? {
        while head < tail {
            if discarding {
                guard let delimiter = firstDelimiter(from: head, to: tail) else {
                    head = tail
                    scanned = tail
                    return nil
                }
                head = delimiter + 1
                scanned = head
                discarding = false
                continue
            }
            // Look no further than a legal frame could reach.
            let limit = min(tail, head + FrameHeader.maximumEncodedLength + 1)
            guard let delimiter = firstDelimiter(from: max(scanned, head), to: limit) else {
                guard limit - head > FrameHeader.maximumEncodedLength else {
                    scanned = limit
                    return nil
                }
                // The 259th byte without a 0x00 has arrived: the run is dropped through the next 0x00.
                head = limit
                scanned = limit
                discarding = true
                return .anomaly(.oversize)
            }
            let start = head
            head = delimiter + 1
            scanned = head
            if delimiter > start { return frame(encoded: start..<delimiter) }
        }
        return nil
    }

    private func firstDelimiter(from start: Int, to end: Int) -> Int? {
        let bytes = input.span
        var index = start
        while index < end {
            if bytes[unchecked: index] == 0 { return index }
            index += 1
        }
        return nil
    }

    /// Decodes `input[encoded]` into `body` and checks its length and CRC, in the spec's order.
    private mutating func frame(encoded range: Range<Int>) -> FramingOutput {
        let encoded = input  // a second reference, so that `body` can be borrowed mutably
        var decodedLength: Int?
        do {
            var output = body.mutableSpan
            decodedLength = COBS.decode(encoded.span.extracting(range), into: &output)
        }
        guard let length = decodedLength, length >= FrameHeader.minimumBodyLength else {
            return .anomaly(.cobsError(encodedLength: range.count))
        }
        guard length <= FrameHeader.maximumBodyLength else { return .anomaly(.oversize) }
        let frameBody = body.span.extracting(0..<length)
        let crc = FrameHeader.crcs(of: frameBody)
        guard crc.computed == crc.carried else { return .anomaly(.crcError(expected: crc.computed, actual: crc.carried)) }
        return .body(FrameHeader(reading: frameBody), payload: FrameHeader.payloadRange(bodyLength: length))
    }
}
