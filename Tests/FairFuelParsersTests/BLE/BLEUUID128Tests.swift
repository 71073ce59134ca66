import Testing

@testable import FairFuelParsers

@Suite("BLE UUID128")
struct BLEUUID128Tests {
    @Test func parsesAndPrintsLowerCase() throws {
        let uuid = try #require(UUID128("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(uuid.description == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(uuid.high == 0xE2C5_6DB5_DFFB_48D2 && uuid.low == 0xB060_D0F5_A710_96E0)
        #expect(UUID128(uuid.description) == uuid)
        #expect(uuid.bytes.first == 0xE2 && uuid.bytes.last == 0xE0)
    }

    @Test(arguments: [
        "", "e2c56db5dffb48d2b060d0f5a71096e0", "e2c56db5-dffb-48d2-b060-d0f5a71096e",
        "e2c56db5-dffb-48d2-b060-d0f5a71096e00", "e2c56db5-dffb-48d2-b060_d0f5a71096e0",
        "g2c56db5-dffb-48d2-b060-d0f5a71096e0", "e2c56db5--ffb-48d2-b060-d0f5a71096e0",
        "{e2c56db5-dffb-48d2-b060-d0f5a71096e0}", " e2c56db5-dffb-48d2-b060-d0f5a71096e",
        "e2c56db5-dffb-48d2-b060-d0f5a71096é",
    ])
    func rejectsMalformedText(text: String) {
        #expect(UUID128(text) == nil)
    }

    @Test func bytesInBothOrders() {
        let bytes: [UInt8] = Array(0..<16)
        let bigEndian = UUID128(bytes: bytes[...])
        let littleEndian = UUID128(littleEndianBytes: bytes.reversed()[...])
        #expect(bigEndian == littleEndian)
        #expect(bigEndian.description == "00010203-0405-0607-0809-0a0b0c0d0e0f")
    }

    @Test func ordersByValue() {
        #expect(UUID128(high: 0, low: 1) < UUID128(high: 1, low: 0))
    }

    @Test func shortBluetoothUUIDsExpandIntoTheBaseUUID() {
        #expect(BLEUUID(uuid16: 0xFEAA).description == "0000feaa-0000-1000-8000-00805f9b34fb")
        #expect(BLEUUID(uuid32: 0x1234_5678).description == "12345678-0000-1000-8000-00805f9b34fb")
        #expect(BLEUUID(UUID128("0000feaa-0000-1000-8000-00805f9b34fb")!) == .eddystone)
        #expect(BLEUUID(littleEndianBytes: [0x01, 0x02, 0x03]) == nil)
    }
}
