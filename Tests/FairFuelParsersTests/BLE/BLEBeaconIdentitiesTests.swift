import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("BLE beacon identities")
struct BLEBeaconIdentitiesTests {
    static let iBeaconData = "02011a1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000640000c5"
    static let eddystoneData = "0201060303aafe1516aafe00f600000000000000000063000000000058"

    private func identities(_ address: String, _ type: BLEAddressType, _ hex: String) -> BeaconIdentities {
        BeaconIdentities(address: BLEAddress(address)!, addressType: type, data: Hex.bytes(hex)![...])
    }

    @Test(arguments: [
        ("C0:00:00:00:00:01", BLEAddressType.random, BLEAddressKind.staticRandom),
        ("F1:55:90:65:29:DC", .random, .staticRandom),
        ("6A:6B:C9:A2:3E:43", .random, .resolvablePrivate),
        ("3A:6B:C9:A2:3E:43", .random, .nonResolvablePrivate),
        ("8A:6B:C9:A2:3E:43", .random, .invalidRandom),
        ("C0:00:00:00:00:00", .random, .invalidRandom),
        ("FF:FF:FF:FF:FF:FF", .random, .invalidRandom),
        ("24:0A:C4:12:34:56", .public, .public),
        ("6A:6B:C9:A2:3E:43", .public, .public),
    ])
    func addressKinds(address: String, type: BLEAddressType, kind: BLEAddressKind) {
        #expect(BLEAddressKind(address: BLEAddress(address)!, type: type) == kind)
        #expect(kind.isStableIdentity == (kind == .public || kind == .staticRandom))
    }

    @Test func iBeaconFromARotatingAddressYieldsOnlyTheBeacon() {
        let list = identities("6A:6B:C9:A2:3E:43", .random, Self.iBeaconData)
        #expect(Array(list) == [.iBeacon(proximityUUID: UUID128("e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 100, minor: 0)])
        #expect(list.addressKind == .resolvablePrivate)
    }

    @Test func eddystoneFromAStaticAddressYieldsBeaconThenAddress() {
        let list = identities("F1:55:90:65:29:DC", .random, Self.eddystoneData)
        #expect(list.map(\.spec) == ["eddystone:00000000000000000063:000000000058", "mac:F1:55:90:65:29:DC"])
    }

    @Test func phoneWithPrivateAddressHasNoIdentity() {
        let list = identities("5A:11:22:33:44:55", .random, "02011a0aff4c0010050a1c77f95b" + "0509" + "50686f6e")
        #expect(list.isEmpty)
    }

    @Test func publicAddressIsAnIdentityWhateverItsTopBits() {
        #expect(Array(identities("24:0A:C4:12:34:56", .public, "")) == [.address(BLEAddress("24:0A:C4:12:34:56")!)])
    }

    @Test func duplicatesAreListedOnceAndOverflowIsCounted() {
        let frame = "1aff4c000215e2c56db5dffb48d2b060d0f5a71096e0"
        var hex = ""
        for minor in 0..<6 { hex += frame + "0064" + String(format2: minor) + "c5" }
        hex += frame + "006400" + "00" + "c5"  // a repeat of minor 0
        let list = identities("C0:00:00:00:00:01", .random, hex)
        #expect(list.count == BeaconIdentities.capacity)
        #expect(list.droppedCount == 3)  // minors 4 and 5, and the address
    }

    @Test func altBeaconAndIBeaconTogether() {
        let hex = "1bffffffbeacd3162f5af3ee494799db09756062d0fc005a0005c400" + "1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000640000c5"
        let list = identities("6D:40:27:85:98:05", .random, hex)
        #expect(list.map(\.spec) == [
            "altbeacon:d3162f5af3ee494799db09756062d0fc005a0005",
            "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:0",
        ])
    }
}

extension String {
    /// `value` as four lower-case hex digits.
    fileprivate init(format2 value: Int) {
        let hex = String(value, radix: 16)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}

@Suite("BLE identity storage")
struct BLEIdentityStorageTests {
    /// Trivially copyable types hold no references, so copying them never touches the heap.
    @Test func identitiesHaveNoHeapStorage() {
        #expect(_isPOD(UUID128.self))
        #expect(_isPOD(BeaconIdentity.self))
        #expect(_isPOD(BeaconIdentities.self))
        #expect(_isPOD(IBeacon.self) && _isPOD(EddystoneUID.self) && _isPOD(AltBeacon.self))
        #expect(MemoryLayout<BeaconIdentity>.size <= 32)
    }
}
