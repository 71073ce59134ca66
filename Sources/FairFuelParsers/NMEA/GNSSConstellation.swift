/// The satellite system a talker names.
public enum GNSSConstellation: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case gps, glonass, galileo, beidou, qzss, navic
    /// A solution from several systems (`GN`).
    case multiple

    /// Lower-case name as printed in JSON (`gps`, `glonass`, ..., `multiple`).
    public var name: String {
        switch self {
        case .gps: "gps"
        case .glonass: "glonass"
        case .galileo: "galileo"
        case .beidou: "beidou"
        case .qzss: "qzss"
        case .navic: "navic"
        case .multiple: "multiple"
        }
    }

    public var description: String { name }
}
