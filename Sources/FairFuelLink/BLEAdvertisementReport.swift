import FairFuelCore

/// BLE_ADV (0x20): one received advertisement with its AD structures.
public struct BLEAdvertisementReport: Sendable, Equatable {
    public static let maximumLegacyDataBytes = 31
    public static let maximumExtendedDataBytes = 237

    public var mcuTimeMs: UInt32
    public var address: BLEAddress
    public var addressType: BLEAddressType
    public var advertisingType: BLEAdvertisingType
    public var rssiDBm: Int8
    /// The advertisement's AD structures, unparsed.
    public var data: ArraySlice<UInt8>

    public init(
        mcuTimeMs: UInt32, address: BLEAddress, addressType: BLEAddressType,
        advertisingType: BLEAdvertisingType, rssiDBm: Int8, data: ArraySlice<UInt8>
    ) {
        self.mcuTimeMs = mcuTimeMs
        self.address = address
        self.addressType = addressType
        self.advertisingType = advertisingType
        self.rssiDBm = rssiDBm
        self.data = data
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> BLEAdvertisementReport {
        var reader = PayloadReader(payload, type: .bleAdvertisement)
        try reader.requireLength(13, 13 + maximumExtendedDataBytes)
        let time = reader.u32()
        var address: UInt64 = 0
        for _ in 0..<6 { address = address << 8 | UInt64(reader.u8()) }
        let addressType: BLEAddressType = try reader.enumValue(reader.u8(), field: "addr_type")
        let advertisingType: BLEAdvertisingType = try reader.enumValue(
            reader.u8(), field: "adv_type")
        let rssi = reader.i8()
        let data = reader.rest()
        if advertisingType.isLegacy && data.count > maximumLegacyDataBytes {
            throw .tooLong(type: .bleAdvertisement, maximum: 13 + maximumLegacyDataBytes, actual: payload.count)
        }
        return BLEAdvertisementReport(
            mcuTimeMs: time, address: BLEAddress(rawValue: address), addressType: addressType,
            advertisingType: advertisingType, rssiDBm: rssi, data: data)
    }

    func write(to writer: inout PayloadWriter) {
        writer.u32(mcuTimeMs)
        for shift in stride(from: 40, through: 0, by: -8) {
            writer.u8(UInt8(truncatingIfNeeded: address.rawValue >> UInt64(shift)))
        }
        writer.u8(addressType.rawValue)
        writer.u8(advertisingType.rawValue)
        writer.i8(rssiDBm)
        writer.append(data)
    }
}
