/// An unencrypted Eddystone-TLM frame (frame type 0x20, version 0x00): the beacon's telemetry.
public struct EddystoneTLM: Hashable, Sendable {
    /// Frame type, version, battery 2, temperature 2, advertisement count 4, uptime 4.
    public static let byteCount = 14

    /// Battery voltage in mV; nil when the beacon does not measure it (sent as 0).
    public var batteryMillivolts: UInt16?
    /// Temperature in 1/256 °C (signed 8.8 fixed point); nil when not measured (sent as 0x8000).
    public var temperatureCelsiusTimes256: Int16?
    /// Advertisements sent since power-on or reboot.
    public var advertisementCount: UInt32
    /// Time since power-on or reboot in units of 0.1 s.
    public var uptimeDeciseconds: UInt32

    /// Decodes the Eddystone service data `frame`; nil when not an unencrypted TLM frame.
    public init?(frame: ArraySlice<UInt8>) {
        guard frame.count >= EddystoneTLM.byteCount, frame[frame.startIndex] == 0x20,
            frame[frame.startIndex + 1] == 0x00
        else { return nil }
        let battery = BeaconBytes.uint16(frame, 2)
        let temperature = Int16(bitPattern: BeaconBytes.uint16(frame, 4))
        batteryMillivolts = battery == 0 ? nil : battery
        temperatureCelsiusTimes256 = temperature == Int16.min ? nil : temperature
        advertisementCount = BeaconBytes.uint32(frame, 6)
        uptimeDeciseconds = BeaconBytes.uint32(frame, 10)
    }

    /// The temperature in °C; nil when not measured.
    public var temperatureCelsius: Double? {
        temperatureCelsiusTimes256.map { Double($0) / 256 }
    }

    /// The uptime in seconds.
    public var uptimeSeconds: Double { Double(uptimeDeciseconds) / 10 }
}
