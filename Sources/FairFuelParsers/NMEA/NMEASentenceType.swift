/// The sentence formatters this module decodes (the three letters after the talker).
public enum NMEASentenceType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case rmc, gga, gns, vtg, gll, gsa, gsv, zda

    /// The formatter spelled by three ASCII letters, or nil when not decoded here.
    @inlinable
    public init?(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        switch (a, b, c) {
        case (0x52, 0x4D, 0x43): self = .rmc  // RMC
        case (0x47, 0x47, 0x41): self = .gga  // GGA
        case (0x47, 0x4E, 0x53): self = .gns  // GNS
        case (0x56, 0x54, 0x47): self = .vtg  // VTG
        case (0x47, 0x4C, 0x4C): self = .gll  // GLL
        case (0x47, 0x53, 0x41): self = .gsa  // GSA
        case (0x47, 0x53, 0x56): self = .gsv  // GSV
        case (0x5A, 0x44, 0x41): self = .zda  // ZDA
        default: return nil
        }
    }

    /// Whether sentences of this type have a UTC time field (RMC, GGA, GNS, GLL, ZDA).
    public var carriesTime: Bool {
        switch self {
        case .rmc, .gga, .gns, .gll, .zda: true
        case .vtg, .gsa, .gsv: false
        }
    }

    /// The three letters as sent.
    public var code: String {
        switch self {
        case .rmc: "RMC"
        case .gga: "GGA"
        case .gns: "GNS"
        case .vtg: "VTG"
        case .gll: "GLL"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .zda: "ZDA"
        }
    }

    public var description: String { code }
}
