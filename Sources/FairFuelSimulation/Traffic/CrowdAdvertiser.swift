import FairFuelCore
import FairFuelLink

/// One BLE advertiser of the synthetic crowd.
struct CrowdAdvertiser {
    var address: BLEAddress
    var addressType: BLEAddressType
    var advertisingType: BLEAdvertisingType
    var rssiDBm: Int
    var data: [UInt8]

    init(index: Int, random: inout SplitMix) {
        rssiDBm = -55 - Int(random.next() % 40)
        let flags: [UInt8] = [0x02, 0x01, 0x06]
        switch index % 4 {
        case 0:  // iBeacon key fob
            address = BLEAddress(rawValue: 0xC0_00_00_00_00_00 | random.next() & 0x3F_FF_FF_FF_FF_FF)
            addressType = .random
            advertisingType = .nonConnectableUndirected
            let uuid: [UInt8] = [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
            data = flags + [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid
                + [0x00, UInt8(index), 0x00, UInt8(index * 3 & 0xFF), 0xC5]
        case 1:  // Eddystone-UID
            address = BLEAddress(rawValue: 0x00_1A_7D_00_00_00 | UInt64(index))
            addressType = .public
            advertisingType = .nonConnectableUndirected
            data = flags + [0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xEE]
                + [0x8B, 0x0C, 0xA7, 0x50, 0xE1, 0x8F, 0x4D, 0x95, 0x0A, 0x1C]
                + [0x00, 0x00, 0x00, 0x00, 0x00, UInt8(index)] + [0x00, 0x00]
        case 2:  // a phone: resolvable private address, manufacturer data
            address = BLEAddress(rawValue: 0x40_00_00_00_00_00 | random.next() & 0x3F_FF_FF_FF_FF_FF)
            addressType = .random
            advertisingType = .connectableUndirected
            data = flags + [0x0B, 0xFF, 0x4C, 0x00, 0x10, 0x06, 0x13, 0x1D, 0x5A, 0x3B, 0x91, 0x08]
        default:  // a named sensor with a 16-bit service
            address = BLEAddress(rawValue: 0xD4_00_00_00_00_00 | UInt64(index))
            addressType = .random
            advertisingType = .scanResponse
            data = [0x09, 0x09] + Array("TPMS \(index % 10)AB".utf8.prefix(8)) + [0x03, 0x02, 0x0F, 0x18]
        }
    }
}
