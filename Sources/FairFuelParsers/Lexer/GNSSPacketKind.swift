/// What `GNSSPacketLexer` recognised: one framing, told by its sync bytes, length and checksum.
public enum GNSSPacketKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// An NMEA 0183 sentence (`$...`) or encapsulation sentence (`!AIVDM...`), line end excluded.
    case nmea
    /// u-blox UBX: `B5 62`, class, id, 16-bit little-endian length, payload, 8-bit Fletcher checksum.
    case ubx
    /// CASIC (AllyStar-based modules, Quectel L76K): `BA CE`, 16-bit little-endian length,
    /// class, id, payload (a multiple of 4 bytes), 32-bit sum of words.
    case casic
    /// SiRF binary: `A0 A2`, 15-bit big-endian length, payload, 15-bit sum, `B0 B3`.
    case sirf
    /// RTCM 3: `D3`, 6 zero bits and a 10-bit length, payload, CRC-24Q.
    case rtcm3
    /// Garmin binary: `DLE`, id, size, data, checksum, `DLE ETX`, with `DLE` doubled inside.
    case garmin
    /// A `#` comment line of a log file (only at the start of a line).
    case comment

    /// Lower-case name as printed in the counters.
    public var name: String {
        switch self {
        case .nmea: "nmea"
        case .ubx: "ubx"
        case .casic: "casic"
        case .sirf: "sirf"
        case .rtcm3: "rtcm3"
        case .garmin: "garmin"
        case .comment: "comment"
        }
    }

    public var description: String { name }
}
