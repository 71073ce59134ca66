import FairFuelLink

/// The MCU's half of revision 1.1's reliable events (PROTOCOL.md, "Reliable events"): NFC_TAG
/// and POWER frames are kept until the host's EVENT_ACK for any copy, sent again 250 ms after
/// the last copy, up to 8 copies; at most 8 wait, the oldest given up beyond that (counted in
/// HEARTBEAT's mcu_dropped). A host that acknowledges none of the first event's copies is an
/// older one: later events go out once, until the next HELLO. Simulated time in, messages out.
struct ReliableEventSender {
    static let window = 8
    static let repeatAfterMs: Int64 = 250
    static let maximumCopies = 8

    private struct Waiting {
        var message: LinkMessage
        /// The seqs of its copies: an EVENT_ACK for any of them settles it.
        var seqs: [UInt16]
        var lastSentAt: Int64
        /// The first event since the HELLO: its fate tells whether the host speaks revision 1.1.
        var probesHost: Bool
        var serial: Int
    }

    private enum Host {
        /// No event settled or given up since the HELLO.
        case unknown
        case acknowledges
        /// Revision 1.0: events go out once.
        case older
    }

    /// Capability bit 5 in this MCU's HELLO.
    let enabled: Bool
    private var waiting: [Waiting] = []
    private var host = Host.unknown
    private var probing = false
    private var nextSerial = 0

    /// Copies sent again, events settled, given up after 8 copies, dropped from a full window.
    private(set) var repeatsSent = 0
    private(set) var settled = 0
    private(set) var givenUp = 0
    private(set) var overflowed = 0

    init(enabled: Bool) {
        self.enabled = enabled
        waiting.reserveCapacity(Self.window + 1)
    }

    /// Whether events are sent as reliable ones now (bit 5 set, and the host not found older).
    var repeats: Bool { enabled && host != .older }

    /// Whether the host has been found to be an older one (no EVENT_ACK for the first event).
    var hostIsOlder: Bool { host == .older }

    /// A reliable event was sent as frame `seq`; returns how many waiting events were given up
    /// to make room (0 or 1: HEARTBEAT's mcu_dropped counts them).
    mutating func sent(_ message: LinkMessage, seq: UInt16, at time: Int64) -> Int {
        guard repeats else { return 0 }
        let probes = host == .unknown && !probing
        if probes { probing = true }
        waiting.append(Waiting(message: message, seqs: [seq], lastSentAt: time, probesHost: probes, serial: nextSerial))
        nextSerial += 1
        guard waiting.count > Self.window else { return 0 }
        let oldest = waiting.removeFirst()
        if oldest.probesHost { probing = false }
        overflowed += 1
        return 1
    }

    /// The host's EVENT_ACK for frame `seq`: settles the event that copy carried.
    mutating func acknowledged(_ seq: UInt16) {
        guard let index = waiting.firstIndex(where: { $0.seqs.contains(seq) }) else { return }
        if waiting[index].probesHost { probing = false }
        waiting.remove(at: index)
        host = .acknowledges
        settled += 1
    }

    /// When the next copy is due; nil when nothing waits.
    var nextDue: Int64? { waiting.map { $0.lastSentAt + Self.repeatAfterMs }.min() }

    /// The events due for another copy at `time`, marked as sent now: frame each and report
    /// its seq with `copySent`. Events already sent 8 times are given up instead; the first
    /// event's give-up marks the host as an older one, and nothing is repeated after it.
    mutating func takeDue(at time: Int64) -> [(serial: Int, message: LinkMessage)] {
        var copies: [(serial: Int, message: LinkMessage)] = []
        var index = 0
        while index < waiting.count {
            guard waiting[index].lastSentAt + Self.repeatAfterMs <= time else {
                index += 1
                continue
            }
            if waiting[index].seqs.count >= Self.maximumCopies {
                let event = waiting.remove(at: index)
                givenUp += 1
                if event.probesHost && host == .unknown {
                    // No EVENT_ACK for any copy of the first event: a revision 1.0 host.
                    host = .older
                    probing = false
                    waiting.removeAll(keepingCapacity: true)
                    return []
                }
                continue
            }
            waiting[index].lastSentAt = time
            copies.append((waiting[index].serial, waiting[index].message))
            index += 1
        }
        return copies
    }

    /// The copy of event `serial` went out as frame `seq` (nil: it could not be framed).
    mutating func copySent(_ serial: Int, seq: UInt16?) {
        guard let seq, let index = waiting.firstIndex(where: { $0.serial == serial }) else { return }
        waiting[index].seqs.append(seq)
        repeatsSent += 1
    }

    /// A HELLO went out (boot, or an answer to HELLO_REQ): what was waiting is forgotten, and
    /// the host is probed again.
    mutating func helloSent() {
        waiting.removeAll(keepingCapacity: true)
        host = .unknown
        probing = false
    }
}
