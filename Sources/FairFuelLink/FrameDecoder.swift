/// Something the decoder noticed on the stream besides a delivered frame.
public enum LinkAnomaly: Sendable, Equatable, CustomStringConvertible {
    /// More than 258 encoded bytes without a delimiter, or a body over 256 bytes.
    case oversize
    /// COBS codes overran the frame, or it decoded to fewer than 6 bytes.
    case cobsError(encodedLength: Int)
    case crcError(expected: UInt16, actual: UInt16)
    case badVersion(UInt8)
    /// Counted and still delivered as `.unknown`.
    case unknownType(UInt8)
    case badPayload(PayloadError)
    /// `count` frames missing before `seq`; the frame itself is still processed.
    case lost(count: Int, seq: UInt16)

    /// The receiver-rule counter this anomaly increments.
    public var counterName: String {
        switch self {
        case .oversize: "oversize"
        case .cobsError: "cobs_error"
        case .crcError: "crc_error"
        case .badVersion: "bad_version"
        case .unknownType: "unknown_type"
        case .badPayload: "bad_payload"
        case .lost: "lost"
        }
    }

    public var description: String {
        switch self {
        case .oversize: "oversize frame dropped"
        case let .cobsError(length): "COBS error in a frame of \(length) encoded bytes"
        case let .crcError(expected, actual):
            "CRC mismatch: computed 0x\(String(expected, radix: 16)), frame says 0x\(String(actual, radix: 16))"
        case let .badVersion(version): "protocol version \(version) is not 1"
        case let .unknownType(type): "unknown frame type 0x\(String(type, radix: 16))"
        case let .badPayload(error): "bad payload: \(error)"
        case let .lost(count, seq): "\(count) frame(s) lost before seq \(seq)"
        }
    }
}

/// What one call of the decoder hands back, in stream order.
public enum DecoderOutput: Sendable, Equatable {
    case frame(Frame)
    /// A repeated seq: counted and dropped; an MCU answers it with the same ACK again.
    case duplicate(seq: UInt16, rawType: UInt8)
    case anomaly(LinkAnomaly)
}

/// Streaming decoder for the framed link: COBS, CRC, sequence, version, type and payload checks.
///
/// Feed it chunks of any size; it calls back with each frame whose closing
/// 0x00 is in the chunk. Storage is fixed at init (one encoded frame and one
/// body), so decoding allocates nothing per frame.
public struct FrameDecoder: Sendable {
    /// The most encoded bytes a conforming frame has before its delimiter.
    public static let maximumEncodedLength = 258
    public static let maximumBodyLength = 256
    public static let minimumBodyLength = 6

    /// Which side's frames this decoder reads.
    public let sender: LinkSide
    public private(set) var counters = LinkCounters()

    // Encoded bytes of a frame whose delimiter has not arrived yet.
    private var pending: [UInt8]
    private var pendingCount = 0
    // After an oversize run: skip through the next 0x00.
    private var discarding = false
    // The decoded body of the frame being checked.
    private var body: [UInt8]
    private var lastSeq: UInt16? = nil

    /// A decoder for frames sent by `sender` (the host decodes `.mcu`).
    public init(sender: LinkSide) {
        self.sender = sender
        pending = [UInt8](repeating: 0, count: FrameDecoder.maximumEncodedLength)
        // COBS of 258 bytes decodes to at most 257: one past the largest legal body.
        body = [UInt8](repeating: 0, count: FrameDecoder.maximumBodyLength + 1)
    }

    /// True when bytes of a frame are waiting for their delimiter.
    public var hasUnfinishedFrame: Bool { pendingCount > 0 || discarding }

    /// Forgets the partial frame and the sequence history, as for a new connection.
    public mutating func restartStream() {
        pendingCount = 0
        discarding = false
        lastSeq = nil
    }

    /// Ends the stream: an unfinished frame is dropped without being counted.
    /// Returns whether there was one.
    @discardableResult
    public mutating func finish() -> Bool {
        let hadUnfinished = hasUnfinishedFrame
        restartStream()
        return hadUnfinished
    }

    public mutating func decode(_ bytes: [UInt8], _ handle: (DecoderOutput) -> Void) {
        decode(bytes.span, handle)
    }

    public mutating func decode(_ bytes: ArraySlice<UInt8>, _ handle: (DecoderOutput) -> Void) {
        decode(bytes.span, handle)
    }

    /// Decodes `chunk`, calling `handle` for each frame, duplicate and anomaly in order.
    public mutating func decode(_ chunk: Span<UInt8>, _ handle: (DecoderOutput) -> Void) {
        let end = chunk.count
        var index = 0
        while index < end {
            if discarding {
                while index < end && chunk[index] != 0 { index += 1 }
                if index == end { return }
                index += 1
                discarding = false
                continue
            }
            // Find the delimiter, looking no further than a legal frame could reach.
            let room = FrameDecoder.maximumEncodedLength - pendingCount
            let scanLimit = min(end, index + room + 1)
            var delimiter = index
            while delimiter < scanLimit && chunk[unchecked: delimiter] != 0 { delimiter += 1 }
            let runLength = delimiter - index
            if runLength > room {
                // The 259th byte without a 0x00 has arrived.
                counters.oversize += 1
                handle(.anomaly(.oversize))
                pendingCount = 0
                discarding = true
                index = delimiter
                continue
            }
            if delimiter == end {
                stash(chunk.extracting(index..<delimiter))
                return
            }
            if pendingCount == 0 {
                if runLength > 0 {
                    let bodyLength = FrameDecoder.cobsDecode(
                        chunk.extracting(index..<delimiter), into: &body)
                    check(bodyLength: bodyLength, encodedLength: runLength, handle)
                }
                // A run of zero bytes is an empty frame: ignored, not counted.
            } else {
                stash(chunk.extracting(index..<delimiter))
                let encodedLength = pendingCount
                let encoded = pending  // a second reference, so that `body` can be borrowed mutably
                let bodyLength = FrameDecoder.cobsDecode(
                    encoded.span.extracting(0..<encodedLength), into: &body)
                pendingCount = 0
                check(bodyLength: bodyLength, encodedLength: encodedLength, handle)
            }
            index = delimiter + 1
        }
    }

    /// Appends encoded bytes of an unfinished frame to `pending` (the caller checked they fit).
    private mutating func stash(_ bytes: Span<UInt8>) {
        let start = pendingCount
        var out = pending.mutableSpan
        for offset in 0..<bytes.count {
            out[start + offset] = bytes[unchecked: offset]
        }
        pendingCount = start + bytes.count
    }

    /// Decodes COBS `encoded` (no 0x00 inside) into `body`; nil when a code overruns the frame.
    private static func cobsDecode(_ encoded: Span<UInt8>, into body: inout [UInt8]) -> Int? {
        var output = body.mutableSpan
        let end = encoded.count
        var read = 0
        var written = 0
        // `encoded` is at most 258 bytes and decodes to at most 257: `output` holds 257.
        precondition(end <= output.count + 1)
        while read < end {
            let code = Int(encoded[unchecked: read])
            let blockEnd = read + code
            guard blockEnd <= end else { return nil }
            read += 1
            while read < blockEnd {
                output[unchecked: written] = encoded[unchecked: read]
                written += 1
                read += 1
            }
            if code != 0xFF && read < end {
                output[written] = 0
                written += 1
            }
        }
        return written
    }

    /// Applies the receiver rules to the decoded body, in the spec's order.
    private mutating func check(
        bodyLength: Int?, encodedLength: Int, _ handle: (DecoderOutput) -> Void
    ) {
        guard let length = bodyLength, length >= FrameDecoder.minimumBodyLength else {
            counters.cobsError += 1
            handle(.anomaly(.cobsError(encodedLength: encodedLength)))
            return
        }
        guard length <= FrameDecoder.maximumBodyLength else {
            counters.oversize += 1
            handle(.anomaly(.oversize))
            return
        }
        let computed = CRC16.checksum(body.span.extracting(0..<(length - 2)))
        let carried = UInt16(body[length - 2]) | UInt16(body[length - 1]) << 8
        guard computed == carried else {
            counters.crcError += 1
            handle(.anomaly(.crcError(expected: computed, actual: carried)))
            return
        }

        let rawType = body[1]
        let seq = UInt16(body[2]) | UInt16(body[3]) << 8
        let restartsCount = rawType == restartType
        if let last = lastSeq, !restartsCount {
            if seq == last {
                counters.duplicate += 1
                handle(.duplicate(seq: seq, rawType: rawType))
                return
            }
            let missing = seq &- last &- 1
            if missing != 0 {
                counters.lost += UInt64(missing)
                handle(.anomaly(.lost(count: Int(missing), seq: seq)))
            }
        }
        lastSeq = seq

        let version = body[0]
        guard version == 1 else {
            counters.badVersion += 1
            handle(.anomaly(.badVersion(version)))
            return
        }
        let payload = body[4..<(length - 2)]
        guard let type = FrameType(rawValue: rawType), type.sender == sender else {
            counters.unknownType += 1
            handle(.anomaly(.unknownType(rawType)))
            counters.frames += 1
            handle(.frame(Frame(seq: seq, message: .unknown(rawType: rawType, payload: payload))))
            return
        }
        let message: LinkMessage
        do {
            message = try LinkMessage.parse(type: type, payload: payload)
        } catch {
            counters.badPayload += 1
            handle(.anomaly(.badPayload(error)))
            return
        }
        counters.frames += 1
        handle(.frame(Frame(seq: seq, message: message)))
    }

    /// The type whose frames restart the sequence count: HELLO from the MCU; from
    /// the host, HELLO_REQ (our reading for the MCU side: a restarted host opens with it).
    private var restartType: UInt8 {
        sender == .mcu ? FrameType.hello.rawValue : FrameType.helloRequest.rawValue
    }
}
