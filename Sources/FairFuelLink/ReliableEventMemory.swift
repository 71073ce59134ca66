/// The host's half of revision 1.1's "each event once": the payloads of the NFC_TAG and POWER
/// frames delivered in the last 60 s of the MCU's uptime, so that a copy the MCU sent again
/// (our EVENT_ACK lost on the line, or late) is recognised byte for byte and not delivered twice.
///
/// Fixed storage, allocated once: `capacity` payloads of at most 250 bytes. The MCU keeps at most
/// 8 events waiting and repeats each for at most 1.75 s, so a few times that covers every copy
/// still on its way; when more distinct events than `capacity` arrive inside 60 s (a card held
/// on the reader) the oldest is forgotten first, and a late copy of it would be delivered again,
/// which the session rules treat as the same driver tapping twice.
public struct ReliableEventMemory: Sendable {
    /// How long a delivered event is remembered, in the MCU's uptime (the protocol's 60 s).
    public static let windowMs: UInt32 = 60_000
    public static let defaultCapacity = 32

    public let capacity: Int
    private var bytes: [UInt8]
    private var lengths: [Int]
    private var types: [UInt8]
    private var stamps: [UInt32]
    /// Slots in use, oldest at `oldest`.
    private var count = 0
    private var oldest = 0
    /// The payload being admitted, serialised (capacity reserved once).
    private var writer = PayloadWriter(bytes: [])
    /// Repeats recognised (and not delivered) since start-up: the `event_repeat` counter.
    public private(set) var repeats: UInt64 = 0

    public init(capacity: Int = ReliableEventMemory.defaultCapacity) {
        precondition(capacity > 0)
        self.capacity = capacity
        bytes = [UInt8](repeating: 0, count: capacity * FrameEncoder.maximumPayloadLength)
        lengths = [Int](repeating: 0, count: capacity)
        types = [UInt8](repeating: 0, count: capacity)
        stamps = [UInt32](repeating: 0, count: capacity)
        writer.bytes.reserveCapacity(FrameEncoder.maximumPayloadLength + 6)
    }

    /// Whether `frame` should be delivered: false for a repeat of a reliable event already
    /// delivered (counted). A HELLO clears the memory (the MCU restarted or answered HELLO_REQ,
    /// and forgot what was waiting); every other type passes untouched.
    public mutating func admit(_ frame: Frame) -> Bool {
        switch frame.message {
        case .hello:
            count = 0
            oldest = 0
            return true
        case let .nfcTag(report):
            return admit(type: FrameType.nfcTag.rawValue, stampMs: report.mcuTimeMs) { writer in report.write(to: &writer) }
        case let .power(report):
            return admit(type: FrameType.power.rawValue, stampMs: report.mcuTimeMs) { writer in report.write(to: &writer) }
        default:
            return true
        }
    }

    /// Whether `frame` carries a reliable event (an MCU with capability bit 5 repeats it until acknowledged).
    public static func isReliableEvent(_ message: LinkMessage) -> Bool {
        switch message {
        case .nfcTag, .power: true
        default: false
        }
    }

    private mutating func admit(type: UInt8, stampMs: UInt32, payload write: (inout PayloadWriter) -> Void) -> Bool {
        forget(before: stampMs)
        // The payload as the MCU sent it (a parsed payload writes back byte for byte).
        writer.bytes.removeAll(keepingCapacity: true)
        write(&writer)
        let length = min(writer.bytes.count, FrameEncoder.maximumPayloadLength)
        for index in 0..<count where matches(slot: (oldest + index) % capacity, type: type, stampMs: stampMs, length: length) {
            repeats += 1
            return false
        }
        if count == capacity {
            oldest = (oldest + 1) % capacity
            count -= 1
        }
        let slot = (oldest + count) % capacity
        let base = slot * FrameEncoder.maximumPayloadLength
        for offset in 0..<length { bytes[base + offset] = writer.bytes[offset] }
        lengths[slot] = length
        types[slot] = type
        stamps[slot] = stampMs
        count += 1
        return true
    }

    private func matches(slot: Int, type: UInt8, stampMs: UInt32, length: Int) -> Bool {
        guard types[slot] == type, lengths[slot] == length, stamps[slot] == stampMs else { return false }
        let base = slot * FrameEncoder.maximumPayloadLength
        for offset in 0..<length where bytes[base + offset] != writer.bytes[offset] { return false }
        return true
    }

    /// Drops what is older than the window before `stampMs` (uint32 arithmetic: the uptime wraps).
    /// Stamps are not strictly ordered (a late copy, another type), so the oldest goes only when
    /// it is old; a younger one behind it waits its turn, which costs a slot, never a wrong answer.
    private mutating func forget(before stampMs: UInt32) {
        while count > 0 {
            let age = stampMs &- stamps[oldest]
            // An age "from the future" beyond the window (wrapped) is an older stamp than ours.
            guard age > ReliableEventMemory.windowMs && age < UInt32.max / 2 else { break }
            oldest = (oldest + 1) % capacity
            count -= 1
        }
    }
}
