import FairFuelCore

/// What happened to a host command.
public enum CommandOutcome: Sendable, Equatable {
    case acknowledged(seq: UInt16, type: UInt8, status: Ack.Status)
    /// No ACK after the first send and three resends.
    case unanswered(seq: UInt16, type: UInt8)
    /// The transmit queue was full; the command was not sent.
    case refused(type: UInt8)
}

/// The host side of the protocol's ACK rules: every command is remembered until
/// the MCU acknowledges it, resent unanswered after 500 ms up to 3 times with the
/// same seq, then given up. Capacity is fixed (the board profile's transmit queue).
public struct CommandTracker: Sendable {
    public static let resendAfterMs: Int64 = 500
    public static let maximumResends = 3

    struct Pending: Sendable {
        var seq: UInt16
        var type: UInt8
        var wire: [UInt8]
        var lastSentAt: LinkMilliseconds
        var resends: Int
    }

    public let capacity: Int
    private var encoder = FrameEncoder()
    private var pending: [Pending] = []
    public private(set) var sentCount: UInt64 = 0
    public private(set) var resentCount: UInt64 = 0
    public private(set) var unansweredCount: UInt64 = 0

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        pending.reserveCapacity(capacity)
    }

    /// Commands still waiting for their ACK.
    public var outstanding: Int { pending.count }

    /// The seq the next command sent will carry (the one to match its outcome against).
    public var nextSeq: UInt16 { encoder.nextSeq }

    /// Frames `message` for sending now and remembers it: its seq (to match its outcome and ACK
    /// against) and its wire bytes; nil (and `.refused`) when the queue is full.
    public mutating func send(_ message: LinkMessage, at time: LinkMilliseconds, _ outcome: (CommandOutcome) -> Void)
        -> (seq: UInt16, wire: [UInt8])?
    {
        guard pending.count < capacity else {
            outcome(.refused(type: message.rawType))
            return nil
        }
        guard let framed = frame(message) else { return nil }
        pending.append(Pending(seq: framed.seq, type: message.rawType, wire: framed.wire, lastSentAt: time, resends: 0))
        sentCount += 1
        return framed
    }

    /// Frames a message the MCU does not ACK (EVENT_ACK) with the host's next seq: one sequence
    /// for every host frame, as the protocol counts them, but nothing remembered or resent.
    public mutating func frameUnacknowledged(_ message: LinkMessage) -> (seq: UInt16, wire: [UInt8])? {
        frame(message)
    }

    private mutating func frame(_ message: LinkMessage) -> (seq: UInt16, wire: [UInt8])? {
        var wire: [UInt8] = []
        guard let seq = try? encoder.encode(message, into: &wire) else { return nil }
        return (seq, wire)
    }

    /// Takes an ACK from the MCU; an ACK for nothing pending (a late duplicate) is ignored.
    public mutating func acknowledge(_ ack: Ack, _ outcome: (CommandOutcome) -> Void) {
        guard let index = pending.firstIndex(where: { $0.seq == ack.ackedSeq }) else { return }
        let command = pending.remove(at: index)
        outcome(.acknowledged(seq: command.seq, type: command.type, status: ack.status))
    }

    /// Hands back the frames due for a resend at `time` (same seq), and gives up on
    /// commands resent three times without an answer.
    public mutating func due(at time: LinkMilliseconds, resend: ([UInt8]) -> Void, _ outcome: (CommandOutcome) -> Void) {
        var index = 0
        while index < pending.count {
            if time.value - pending[index].lastSentAt.value >= CommandTracker.resendAfterMs {
                if pending[index].resends >= CommandTracker.maximumResends {
                    let command = pending.remove(at: index)
                    unansweredCount += 1
                    outcome(.unanswered(seq: command.seq, type: command.type))
                    continue
                }
                pending[index].resends += 1
                pending[index].lastSentAt = time
                resentCount += 1
                resend(pending[index].wire)
            }
            index += 1
        }
    }

    /// Milliseconds until the next resend or give-up is due; nil when nothing is pending.
    public func millisecondsUntilDue(at time: LinkMilliseconds) -> Int64? {
        pending.map { max(0, CommandTracker.resendAfterMs - (time.value - $0.lastSentAt.value)) }.min()
    }

    /// Forgets everything pending (the link was lost: the MCU will not answer old commands).
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
    }
}
