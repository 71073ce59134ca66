/// An AltBeacon frame: manufacturer data of any company that opens with the beacon code 0xBEAC.
public struct AltBeacon: Hashable, Sendable {
    /// Bytes of the frame after the company id: code 2, id 20, reference RSSI 1, reserved 1.
    public static let frameByteCount = 24

    /// The advertiser's company id (the frame's MFG ID).
    public var companyID: UInt16
    public var id: AltBeaconID
    /// The RSSI in dBm the vendor measured at 1 m from the beacon.
    public var referenceRSSIDBm: Int8
    /// The manufacturer-reserved byte, as sent.
    public var manufacturerReserved: UInt8

    public init(companyID: UInt16, id: AltBeaconID, referenceRSSIDBm: Int8, manufacturerReserved: UInt8) {
        self.companyID = companyID
        self.id = id
        self.referenceRSSIDBm = referenceRSSIDBm
        self.manufacturerReserved = manufacturerReserved
    }

    /// Decodes an AltBeacon frame; nil when `manufacturerData` is not one (extra bytes are ignored).
    public init?(_ manufacturerData: ManufacturerData) {
        let data = manufacturerData.data
        guard data.count >= AltBeacon.frameByteCount,
            data[data.startIndex] == 0xBE, data[data.startIndex + 1] == 0xAC
        else { return nil }
        let start = data.startIndex
        companyID = manufacturerData.companyID
        id = AltBeaconID(bytes: data[(start + 2)..<(start + 22)])
        referenceRSSIDBm = BeaconBytes.int8(data, 22)
        manufacturerReserved = data[start + 23]
    }

    /// The identity a driver's beacon is provisioned with (the 20-byte id).
    public var identity: BeaconIdentity { .altBeacon(id) }
}
