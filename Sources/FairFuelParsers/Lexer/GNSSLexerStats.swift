import FairFuelCore

/// Counters of a `GNSSPacketLexer`: every byte fed ends in exactly one of a
/// packet, a line end between packets, garbage, or still pending.
public struct GNSSLexerStats: Hashable, Sendable {
    /// Bytes fed.
    public var bytes = 0
    /// Whole packets by kind.
    public var nmea = 0
    public var ubx = 0
    public var casic = 0
    public var sirf = 0
    public var rtcm3 = 0
    public var garmin = 0
    public var comments = 0
    /// Bytes in whole packets (line ends excluded).
    public var packetBytes = 0
    /// CR and LF bytes between packets.
    public var lineEndBytes = 0
    /// Bytes that belong to no packet.
    public var garbageBytes = 0
    /// Binary sync sequences whose checksum, trailer or length failed (scanning resumed one byte after the sync).
    public var rejectedBinary = 0
    /// NMEA sentences cut before their end by a byte that may not appear in one, or too long.
    public var truncatedNMEA = 0

    public init() {}

    /// Packets of `kind` counted so far.
    public subscript(kind: GNSSPacketKind) -> Int {
        get {
            switch kind {
            case .nmea: nmea
            case .ubx: ubx
            case .casic: casic
            case .sirf: sirf
            case .rtcm3: rtcm3
            case .garmin: garmin
            case .comment: comments
            }
        }
        set {
            switch kind {
            case .nmea: nmea = newValue
            case .ubx: ubx = newValue
            case .casic: casic = newValue
            case .sirf: sirf = newValue
            case .rtcm3: rtcm3 = newValue
            case .garmin: garmin = newValue
            case .comment: comments = newValue
            }
        }
    }

    /// Every byte fed was decided: a packet's, a line end or garbage (true once
    /// the lexer has nothing pending, after `markEnd()` and draining `next()`).
    public var isConsistent: Bool { bytes == packetBytes + lineEndBytes + garbageBytes }

    /// Binary packets of every kind.
    public var binaryPackets: Int { ubx + casic + sirf + rtcm3 + garmin }

    /// `{"lexer":{"bytes":N,"nmea":N,"ubx":N,...,"garbage_bytes":N,...}}`.
    public var jsonLine: String {
        var stats = JSONLine()
        for (name, value) in named { stats.add(name, value) }
        var line = JSONLine()
        line.addRaw("lexer", json: stats.string)
        return line.string
    }

    /// The counters by their JSON names, in `jsonLine` order.
    public var named: [(name: String, value: Int)] {
        [
            ("bytes", bytes), ("nmea", nmea), ("ubx", ubx), ("casic", casic), ("sirf", sirf),
            ("rtcm3", rtcm3), ("garmin", garmin), ("comments", comments),
            ("garbage_bytes", garbageBytes), ("rejected_binary", rejectedBinary),
            ("truncated_nmea", truncatedNMEA),
        ]
    }
}
