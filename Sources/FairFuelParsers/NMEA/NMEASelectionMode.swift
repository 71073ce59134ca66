/// How the receiver chose between 2D and 3D (GSA field 1).
public enum NMEASelectionMode: UInt8, Sendable, CaseIterable {
    case manual = 0x4D  // M
    case automatic = 0x41  // A
}
