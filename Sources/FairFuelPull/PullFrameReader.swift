import FairFuelLink

/// What the reader hands back for each frame or noise on the line.
public enum PullReaderOutput: Sendable, Equatable {
    case message(PullMessage)
    /// A frame of a type the reader's end does not accept, or a payload out of range.
    case rejected(rawType: UInt8, reason: String)
    /// Line noise the link decoder counted (COBS, CRC, oversize, version); the stream goes on.
    case noise(counter: String)
}

/// Decodes USB pull frames sent by `sender` on top of the MCU link's `FrameDecoder`.
///
/// The link decoder delivers our types as `.unknown` (they are not in the MCU table);
/// this reader parses them, and keeps its own counters of noise and rejected frames.
public struct PullFrameReader: Sendable {
    public let sender: PullSide
    private var decoder: FrameDecoder
    /// Frames lost to line noise (COBS, CRC, oversize, version) since the reader was made.
    public private(set) var noiseCount = 0
    /// Frames that passed the CRC but were not acceptable pull messages.
    public private(set) var rejectedCount = 0
    /// Frames delivered as messages.
    public private(set) var messageCount = 0

    public init(sender: PullSide) {
        self.sender = sender
        // The laptop's frames arrive as the link's "host" side, so HELLO_REQ restarts the sequence.
        decoder = FrameDecoder(sender: sender == .laptop ? .host : .mcu)
    }

    /// Forgets any partial frame and the sequence history.
    public mutating func restartStream() { decoder.restartStream() }

    /// Decodes `chunk`, calling `handle` for each message, rejected frame and noise event in order.
    public mutating func decode(_ chunk: ArraySlice<UInt8>, _ handle: (PullReaderOutput) -> Void) {
        let side = sender
        var noise = 0, rejected = 0, messages = 0
        decoder.decode(chunk) { output in
            switch output {
            case let .frame(frame):
                let rawType: UInt8
                let payload: ArraySlice<UInt8>
                switch frame.message {
                case let .unknown(type, body):
                    rawType = type
                    payload = body
                case let .helloRequest(request) where side == .laptop:
                    messages += 1
                    handle(.message(.helloRequest(major: request.hostMajor, minor: request.hostMinor)))
                    return
                default:
                    rejected += 1
                    handle(.rejected(rawType: frame.message.rawType, reason: "not a USB pull frame"))
                    return
                }
                guard let type = PullFrameType(rawValue: rawType), type.sender == side else {
                    rejected += 1
                    handle(.rejected(rawType: rawType, reason: "unknown type"))
                    return
                }
                guard let message = PullMessage.parse(type: type, payload: payload) else {
                    rejected += 1
                    handle(.rejected(rawType: rawType, reason: "bad payload"))
                    return
                }
                messages += 1
                handle(.message(message))
            case .duplicate:
                break
            case let .anomaly(anomaly):
                switch anomaly {
                case .unknownType, .lost:
                    // Our own types are "unknown" to the link; lost frames show up as a page gap.
                    break
                case .badPayload:
                    // Only HELLO_REQ is parsed by the link decoder: a malformed one.
                    rejected += 1
                    handle(.rejected(rawType: PullFrameType.helloRequest.rawValue, reason: "bad payload"))
                default:
                    noise += 1
                    handle(.noise(counter: anomaly.counterName))
                }
            }
        }
        noiseCount += noise
        rejectedCount += rejected
        messageCount += messages
    }
}

/// Frames USB pull messages with this sender's sequence.
public struct PullFrameWriter: Sendable {
    public private(set) var nextSeq: UInt16

    public init(firstSeq: UInt16 = 0) { nextSeq = firstSeq }

    /// The wire bytes of `message`; advances the sequence.
    public mutating func encode(_ message: PullMessage) -> [UInt8] {
        let payload = message.payload()
        precondition(payload.count <= 250, "a pull payload never exceeds the link's 250 bytes")
        let seq = nextSeq
        nextSeq &+= 1
        return FrameEncoder.encodeRaw(type: message.type.rawValue, seq: seq, payload: payload)
    }
}
