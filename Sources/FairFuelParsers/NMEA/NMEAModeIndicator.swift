/// The positioning mode letter of NMEA 2.3 and later (RMC, GLL, VTG; one per system in GNS).
public enum NMEAModeIndicator: UInt8, Sendable, CaseIterable {
    case autonomous = 0x41  // A
    case differential = 0x44  // D
    case estimated = 0x45  // E: dead reckoning
    case rtkFloat = 0x46  // F
    case manual = 0x4D  // M: position entered by hand
    case notValid = 0x4E  // N
    case precise = 0x50  // P
    case rtkFixed = 0x52  // R
    case simulator = 0x53  // S

    /// Whether the receiver claims a position in this mode (everything but `N`).
    public var isValid: Bool { self != .notValid }
}
