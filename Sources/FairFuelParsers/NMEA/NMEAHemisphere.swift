/// A hemisphere or direction letter (`N`, `S`, `E`, `W`).
public enum NMEAHemisphere: UInt8, Sendable, CaseIterable {
    case north = 0x4E
    case south = 0x53
    case east = 0x45
    case west = 0x57
}
