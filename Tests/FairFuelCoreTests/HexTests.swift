import FairFuelCore
import Testing

@Suite struct HexTests {
    @Test func roundTrips() {
        let bytes: [UInt8] = [0x00, 0x0F, 0xA5, 0xFF]
        #expect(Hex.string(bytes) == "000fa5ff")
        #expect(Hex.bytes("000FA5ff") == bytes)
    }

    @Test(arguments: ["0", "0g", "zz", "abc"])
    func rejectsBadHex(text: String) {
        #expect(Hex.bytes(text) == nil)
    }

    @Test func bleAddressTextRoundTrips() throws {
        let address = try #require(BLEAddress("aa:BB:cc:01:02:03"))
        #expect(address.description == "AA:BB:CC:01:02:03")
        #expect(address.bytes == [0xAA, 0xBB, 0xCC, 0x01, 0x02, 0x03])
        #expect(BLEAddress("AA:BB:CC:01:02") == nil)
        #expect(BLEAddress("AA:BB:CC:01:02:0G") == nil)
        #expect(address.topBits == 0b10)
    }
}
