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

/// The receiver of the framed link (PROTOCOL.md, Receiver rules): `LinkFramer` does the
/// framing (COBS, length, CRC); this type adds the sequence, version and type checks and
/// parses payloads into `LinkMessage`s.
///
/// Pull-based, as `GNSSPacketLexer` is: `append` copies bytes in, `next()` hands out the next
/// frame, duplicate or anomaly in stream order, or nil when it needs more bytes:
///
///     var offset = 0
///     repeat {
///         offset += decoder.append(chunk.extracting(droppingFirst: offset))
///         while let output = decoder.next() { ... }
///     } while offset < chunk.count
///
/// A frame's payload is a slice of the framer's body buffer, valid until the next `next()`.
/// Storage is fixed at init, so decoding allocates nothing per frame.
public struct FrameDecoder: Sendable {
    /// Which side's frames this decoder reads.
    public let sender: LinkSide
    public private(set) var counters = LinkCounters()
    /// The header of the last frame that passed the CRC check (the seq to answer a bad payload with).
    public private(set) var lastHeader: FrameHeader?

    private var framer = LinkFramer()
    private var lastSeq: UInt16? = nil
    // One frame can give up to three outputs (lost, unknown_type, the frame): handed out in turn.
    private var queued: [DecoderOutput] = []
    private var queuedIndex = 0

    /// A decoder for frames sent by `sender` (the host decodes `.mcu`).
    public init(sender: LinkSide) {
        self.sender = sender
        queued.reserveCapacity(3)
    }

    /// True when bytes of a frame are waiting for their delimiter (once `next()` returned nil).
    public var hasUnfinishedFrame: Bool { framer.hasUnfinishedFrame }

    /// Forgets the partial frame and the sequence history, as for a new connection.
    public mutating func restartStream() {
        framer.restart()
        queued.removeAll(keepingCapacity: true)
        queuedIndex = 0
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

    /// Copies as many of `bytes` as fit and returns how many were taken; never 0 for
    /// non-empty input once `next()` has returned nil.
    public mutating func append(_ bytes: Span<UInt8>) -> Int {
        framer.append(bytes)
    }

    /// The next frame, duplicate or anomaly, in stream order; nil when the bytes appended so far hold no more.
    public mutating func next() -> DecoderOutput? {
        if queuedIndex < queued.count {
            defer { queuedIndex += 1 }
            return queued[queuedIndex]
        }
        queued.removeAll(keepingCapacity: true)
        queuedIndex = 0
        while let framed = framer.next() {
            switch framed {
            case let .anomaly(anomaly):
                count(anomaly)
                return .anomaly(anomaly)
            case let .body(header, payload):
                guard let output = check(header, payload: framer.body[payload]) else { continue }
                return output
            }
        }
        return nil
    }

    /// Decodes all of `chunk` at once, calling `handle` for each output in order (for tools and
    /// tests that take every output; the live path pulls with `append` and `next`).
    public mutating func decode(_ chunk: Span<UInt8>, _ handle: (DecoderOutput) -> Void) {
        var offset = 0
        repeat {
            offset += append(chunk.extracting(droppingFirst: offset))
            while let output = next() { handle(output) }
        } while offset < chunk.count
    }

    public mutating func decode(_ bytes: [UInt8], _ handle: (DecoderOutput) -> Void) {
        decode(bytes.span, handle)
    }

    public mutating func decode(_ bytes: ArraySlice<UInt8>, _ handle: (DecoderOutput) -> Void) {
        decode(bytes.span, handle)
    }

    private mutating func count(_ anomaly: LinkAnomaly) {
        switch anomaly {
        case .oversize: counters.oversize += 1
        case .cobsError: counters.cobsError += 1
        case .crcError: counters.crcError += 1
        case .badVersion: counters.badVersion += 1
        case .unknownType: counters.unknownType += 1
        case .badPayload: counters.badPayload += 1
        case let .lost(missing, _): counters.lost += UInt64(missing)
        }
    }

    /// Applies the receiver rules after the CRC to a framed body, in the spec's order: the
    /// first output is returned, any later ones queued; nil when the frame gives none.
    private mutating func check(_ header: FrameHeader, payload: ArraySlice<UInt8>) -> DecoderOutput? {
        lastHeader = header
        var first: DecoderOutput?
        func emit(_ output: DecoderOutput) {
            if first == nil { first = output } else { queued.append(output) }
        }
        let restartsCount = header.type == restartType
        if let last = lastSeq, !restartsCount {
            if header.seq == last {
                counters.duplicate += 1
                return .duplicate(seq: header.seq, rawType: header.type)
            }
            let missing = header.seq &- last &- 1
            if missing != 0 {
                count(.lost(count: Int(missing), seq: header.seq))
                emit(.anomaly(.lost(count: Int(missing), seq: header.seq)))
            }
        }
        lastSeq = header.seq

        guard header.version == FrameHeader.currentVersion else {
            count(.badVersion(header.version))
            emit(.anomaly(.badVersion(header.version)))
            return first
        }
        guard let type = FrameType(rawValue: header.type), type.sender == sender else {
            count(.unknownType(header.type))
            emit(.anomaly(.unknownType(header.type)))
            counters.frames += 1
            emit(.frame(Frame(seq: header.seq, message: .unknown(rawType: header.type, payload: payload))))
            return first
        }
        do {
            let message = try LinkMessage.parse(type: type, payload: payload)
            counters.frames += 1
            emit(.frame(Frame(seq: header.seq, message: message)))
        } catch {
            count(.badPayload(error))
            emit(.anomaly(.badPayload(error)))
        }
        return first
    }

    /// The type whose frames restart the sequence count: HELLO from the MCU; from
    /// the host, HELLO_REQ (our reading for the MCU side: a restarted host opens with it).
    private var restartType: UInt8 {
        sender == .mcu ? FrameType.hello.rawValue : FrameType.helloRequest.rawValue
    }
}
