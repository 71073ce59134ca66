#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Received signal strength at the dongle's scanner.
///
/// Log-distance path loss from the iBeacon measured power (-59 dBm at 1 m), exponent
/// 2.0 inside the cabin and 2.4 outside, 7 dB for the car's body when the fob is
/// outside, shadowing passed in by the caller (an AR(1) process per fob), and Rician
/// fast fading (K = 8 in the cabin, 2 outside). The scanner reports nothing below -100 dBm.
public struct RadioModel: Sendable {
    public static let sensitivityDBm = -100.0

    public init() {}

    public func rssi(inside: Bool, distance: Double, extraLossDB: Double, shadowDB: Double, random: inout SeededGenerator)
        -> Double
    {
        let d = max(distance, 0.3)
        let exponent = inside ? 2.0 : 2.4
        var value = -59 - 10 * exponent * log10(d) - extraLossDB + shadowDB
        if !inside { value -= 7 }
        let k = inside ? 8.0 : 2.0
        let los = (k / (k + 1)).squareRoot()
        let scatter = (1 / (2 * (k + 1))).squareRoot()
        let i = los + scatter * random.gaussian()
        let q = scatter * random.gaussian()
        value += 10 * log10(max(i * i + q * q, 1e-6))
        return value
    }

    /// The RSSI as the scanner reports it (whole dBm), nil when too weak to hear.
    public static func reported(_ rssi: Double) -> Int8? {
        guard rssi >= sensitivityDBm else { return nil }
        return Int8(clamping: Int(rssi.rounded()))
    }
}
