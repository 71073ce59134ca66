/// The GNSS talker of a sentence: the two letters after `$` naming the constellation.
///
/// Other talkers (instruments such as `EC`, `HE`, `II`) are counted as unsupported.
public enum NMEATalker: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// `GP`: GPS.
    case gps
    /// `GL`: GLONASS.
    case glonass
    /// `GA`: Galileo.
    case galileo
    /// `GB`: BeiDou (NMEA 4.11 spelling).
    case beidou
    /// `BD`: BeiDou (older spelling).
    case beidouLegacy
    /// `GQ`: QZSS (NMEA 4.11 spelling).
    case qzss
    /// `QZ`: QZSS (older spelling).
    case qzssLegacy
    /// `GI`: NavIC (IRNSS).
    case navic
    /// `GN`: a solution combining several constellations.
    case combined

    /// The talker spelled by two ASCII letters, or nil.
    @inlinable
    public init?(_ first: UInt8, _ second: UInt8) {
        switch (first, second) {
        case (0x47, 0x50): self = .gps  // GP
        case (0x47, 0x4C): self = .glonass  // GL
        case (0x47, 0x41): self = .galileo  // GA
        case (0x47, 0x42): self = .beidou  // GB
        case (0x42, 0x44): self = .beidouLegacy  // BD
        case (0x47, 0x51): self = .qzss  // GQ
        case (0x51, 0x5A): self = .qzssLegacy  // QZ
        case (0x47, 0x49): self = .navic  // GI
        case (0x47, 0x4E): self = .combined  // GN
        default: return nil
        }
    }

    /// The two letters as sent.
    public var code: String {
        switch self {
        case .gps: "GP"
        case .glonass: "GL"
        case .galileo: "GA"
        case .beidou: "GB"
        case .beidouLegacy: "BD"
        case .qzss: "GQ"
        case .qzssLegacy: "QZ"
        case .navic: "GI"
        case .combined: "GN"
        }
    }

    public var description: String { code }
}
