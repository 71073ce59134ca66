/// What a fix knows, numbered as gpsd's TPV `mode`.
public enum GNSSMode: UInt8, Sendable, Comparable, CaseIterable {
    /// No sentence of the epoch said anything about the fix.
    case noData = 0
    /// The receiver reports no position.
    case noFix = 1
    /// Latitude and longitude.
    case fix2D = 2
    /// Latitude, longitude and altitude.
    case fix3D = 3

    public static func < (a: GNSSMode, b: GNSSMode) -> Bool { a.rawValue < b.rawValue }
}
