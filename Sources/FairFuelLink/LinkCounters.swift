/// The receiver-rule counters of the protocol, under the spec's names.
public struct LinkCounters: Sendable, Equatable {
    /// Frames delivered (passed COBS, CRC, version and payload checks).
    public var frames: UInt64 = 0
    public var cobsError: UInt64 = 0
    public var crcError: UInt64 = 0
    public var oversize: UInt64 = 0
    public var badVersion: UInt64 = 0
    public var unknownType: UInt64 = 0
    public var badPayload: UInt64 = 0
    /// Frames missing according to sequence gaps.
    public var lost: UInt64 = 0
    public var duplicate: UInt64 = 0
    /// Repeats of a reliable event already delivered (revision 1.1): the MCU resent it because
    /// our EVENT_ACK was lost or late. Not an error: each is answered and not delivered again.
    public var eventRepeat: UInt64 = 0

    public init() {}

    /// The counters as (spec name, value), in the spec's order.
    public var named: [(name: String, value: UInt64)] {
        [
            ("frames", frames), ("cobs_error", cobsError), ("crc_error", crcError),
            ("oversize", oversize), ("bad_version", badVersion), ("unknown_type", unknownType),
            ("bad_payload", badPayload), ("lost", lost), ("duplicate", duplicate), ("event_repeat", eventRepeat),
        ]
    }

    /// The counters above zero but `frames`, as "crc_error 3, lost 1": the event log's and the replay's line.
    public var nonZeroSummary: String {
        named.filter { $0.name != "frames" && $0.value > 0 }.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
    }

    /// Every error counter added up (frames excluded).
    public var errorTotal: UInt64 {
        cobsError + crcError + oversize + badVersion + unknownType + badPayload + lost + duplicate
    }

    public static func + (lhs: LinkCounters, rhs: LinkCounters) -> LinkCounters {
        var sum = LinkCounters()
        sum.frames = lhs.frames + rhs.frames
        sum.cobsError = lhs.cobsError + rhs.cobsError
        sum.crcError = lhs.crcError + rhs.crcError
        sum.oversize = lhs.oversize + rhs.oversize
        sum.badVersion = lhs.badVersion + rhs.badVersion
        sum.unknownType = lhs.unknownType + rhs.unknownType
        sum.badPayload = lhs.badPayload + rhs.badPayload
        sum.lost = lhs.lost + rhs.lost
        sum.duplicate = lhs.duplicate + rhs.duplicate
        sum.eventRepeat = lhs.eventRepeat + rhs.eventRepeat
        return sum
    }
}
