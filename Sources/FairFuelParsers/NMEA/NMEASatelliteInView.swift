/// One satellite of a GSV sentence.
///
/// Values are whole numbers (a receiver's `24.5` dB-Hz is rounded to 25): the
/// sentence is copied by value on the hot path and stays small.
public struct NMEASatelliteInView: Hashable, Sendable {
    /// PRN or NMEA satellite number.
    public var id: UInt16
    /// Degrees above the horizon, -90...90.
    public var elevation: Int8?
    /// Degrees from true north, 0...359.
    public var azimuth: UInt16?
    /// Carrier-to-noise density, dB-Hz; nil when not tracked.
    public var snr: UInt8?

    public init(id: UInt16, elevation: Int8? = nil, azimuth: UInt16? = nil, snr: UInt8? = nil) {
        self.id = id
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
    }
}
