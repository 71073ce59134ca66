/// The GGA fix quality digit.
public enum NMEAFixQuality: UInt8, Sendable, CaseIterable {
    case invalid = 0
    case gps = 1
    case differential = 2
    case pps = 3
    case rtkFixed = 4
    case rtkFloat = 5
    case estimated = 6
    case manual = 7
    case simulator = 8

    /// Whether the receiver claims a position (every quality but 0).
    public var isValid: Bool { self != .invalid }
}
