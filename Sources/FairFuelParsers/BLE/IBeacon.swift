/// An Apple iBeacon frame: manufacturer data of company 0x004C that opens with 0x02 0x15.
public struct IBeacon: Hashable, Sendable {
    /// Bytes of the frame after the company id: 0x02 0x15, UUID 16, major 2, minor 2, power 1.
    public static let frameByteCount = 23

    public var proximityUUID: UUID128
    public var major: UInt16
    public var minor: UInt16
    /// The RSSI in dBm the vendor measured at 1 m from the beacon.
    public var measuredPowerDBm: Int8

    public init(proximityUUID: UUID128, major: UInt16, minor: UInt16, measuredPowerDBm: Int8) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.measuredPowerDBm = measuredPowerDBm
    }

    /// Decodes an iBeacon frame; nil when `manufacturerData` is not one.
    ///
    /// Bytes after the 23-byte frame are ignored (some sensors append one), as Apple's
    /// length byte 0x15 only covers the frame.
    public init?(_ manufacturerData: ManufacturerData) {
        let data = manufacturerData.data
        guard manufacturerData.companyID == ManufacturerData.appleCompanyID,
            data.count >= IBeacon.frameByteCount,
            data[data.startIndex] == 0x02, data[data.startIndex + 1] == 0x15
        else { return nil }
        let start = data.startIndex
        proximityUUID = UUID128(bytes: data[(start + 2)..<(start + 18)])
        major = BeaconBytes.uint16(data, 18)
        minor = BeaconBytes.uint16(data, 20)
        measuredPowerDBm = BeaconBytes.int8(data, 22)
    }

    /// The identity a driver's beacon is provisioned with (UUID, major, minor).
    public var identity: BeaconIdentity {
        .iBeacon(proximityUUID: proximityUUID, major: major, minor: minor)
    }
}
