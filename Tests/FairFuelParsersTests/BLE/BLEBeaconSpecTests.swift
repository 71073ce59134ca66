import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("BLE beacon specs")
struct BLEBeaconSpecTests {
    @Test(arguments: [
        "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:0",
        "ibeacon:00000000-0000-0000-0000-000000000000:65535:65535",
        "eddystone:00010203040506070809:0a0b0c0d0e0f",
        "altbeacon:d3162f5af3ee494799db09756062d0fc005a0005",
        "mac:C0:11:22:33:44:55",
        "mac:24:0A:C4:12:34:56/public",
    ])
    func roundTrips(spec: String) throws {
        let identity = try BeaconIdentity(spec: spec)
        #expect(identity.spec == spec)
        #expect(try BeaconIdentity(spec: identity.description) == identity)
    }

    @Test func acceptsAnyCase() throws {
        #expect(
            try BeaconIdentity(spec: "IBeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:00100:7")
                == .iBeacon(proximityUUID: UUID128("e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 100, minor: 7))
        #expect(try BeaconIdentity(spec: "MAC:c0:11:22:33:44:aa").spec == "mac:C0:11:22:33:44:AA")
        #expect(try BeaconIdentity(spec: "mac:24:0a:c4:12:34:56/PUBLIC").spec == "mac:24:0A:C4:12:34:56/public")
        #expect(
            try BeaconIdentity(spec: "eddystone:0001020304050607080A:0A0B0C0D0E0F").spec
                == "eddystone:0001020304050607080a:0a0b0c0d0e0f")
    }

    @Test(arguments: [
        ("", BeaconSpecError.empty),
        ("ibeacon", .unknownScheme("ibeacon")),
        ("beacon:1", .unknownScheme("beacon")),
        ("ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100", .wrongFieldCount(scheme: "ibeacon", expected: 3, actual: 2)),
        ("ibeacon:e2c56db5dffb48d2b060d0f5a71096e0:1:2", .badUUID("e2c56db5dffb48d2b060d0f5a71096e0")),
        ("ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:65536:0", .outOfRange(field: "major", text: "65536", range: 0...65535)),
        ("ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:99999999999999999999:0", .outOfRange(field: "major", text: "99999999999999999999", range: 0...65535)),
        ("ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:-1:0", .outOfRange(field: "major", text: "-1", range: 0...65535)),
        ("ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:x", .notDecimal(field: "minor", text: "x")),
        ("ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:+1:0", .notDecimal(field: "major", text: "+1")),
        ("ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0::0", .notDecimal(field: "major", text: "")),
        ("eddystone:000102030405060708:0a0b0c0d0e0f", .wrongHexLength(field: "namespace", expectedDigits: 20, actualDigits: 18)),
        ("eddystone:00010203040506070809:0a0b0c0d0e0", .wrongHexLength(field: "instance", expectedDigits: 12, actualDigits: 11)),
        ("eddystone:0001020304050607080g:0a0b0c0d0e0f", .notHex(field: "namespace", text: "0001020304050607080g")),
        ("eddystone:00010203040506070809", .wrongFieldCount(scheme: "eddystone", expected: 2, actual: 1)),
        ("altbeacon:d3162f5a", .wrongHexLength(field: "AltBeacon id", expectedDigits: 40, actualDigits: 8)),
        ("mac:C0:11:22:33:44", .badAddress("C0:11:22:33:44")),
        ("mac:C0:11:22:33:44:5G", .badAddress("C0:11:22:33:44:5G")),
        ("mac:C0:11:22:33:44:55/private", .badAddress("C0:11:22:33:44:55/private")),
        ("mac:6A:6B:C9:A2:3E:43", .unstableAddress(BLEAddress("6A:6B:C9:A2:3E:43")!, kind: .resolvablePrivate)),
        ("mac:3A:6B:C9:A2:3E:43", .unstableAddress(BLEAddress("3A:6B:C9:A2:3E:43")!, kind: .nonResolvablePrivate)),
        ("mac:8A:6B:C9:A2:3E:43", .unstableAddress(BLEAddress("8A:6B:C9:A2:3E:43")!, kind: .invalidRandom)),
    ])
    func refusesEachDefect(spec: String, error: BeaconSpecError) {
        #expect(throws: error) { try BeaconIdentity(spec: spec) }
    }

    @Test func refusalOfAPrivateAddressExplainsItself() {
        let message = BeaconSpecError.unstableAddress(BLEAddress("6A:6B:C9:A2:3E:43")!, kind: .resolvablePrivate)
            .description
        #expect(message.contains("resolvable private"))
        #expect(message.contains("rotates"))
        #expect(message.contains("mac:6A:6B:C9:A2:3E:43/public"))
        #expect(message.contains("is a resolvable private address"))
        let invalid = BeaconSpecError.unstableAddress(BLEAddress("8A:6B:C9:A2:3E:43")!, kind: .invalidRandom).description
        #expect(invalid.contains("is an invalid random address"), "\(invalid)")
    }
}
