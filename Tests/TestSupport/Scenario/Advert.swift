import FairFuelCore
import FairFuelLink

/// One advertisement as the scanner reports it.
public struct Advert: Sendable {
    public var address: BLEAddress
    public var addressType: BLEAddressType
    public var advertisingType: BLEAdvertisingType
    public var rssiDBm: Int8
    public var data: [UInt8]
}
