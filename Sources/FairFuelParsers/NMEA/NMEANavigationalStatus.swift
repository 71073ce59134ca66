/// The navigational status letter of NMEA 4.1 (last field of RMC and GNS).
public enum NMEANavigationalStatus: UInt8, Sendable, CaseIterable {
    case safe = 0x53  // S
    case caution = 0x43  // C
    case unsafe = 0x55  // U
    case notValid = 0x56  // V
}
