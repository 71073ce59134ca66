/// The status letter of RMC and GLL.
public enum NMEAStatus: UInt8, Sendable, CaseIterable {
    /// `A`: data valid.
    case active = 0x41
    /// `V`: receiver warning; position, speed and date are not to be trusted.
    case void = 0x56
}
