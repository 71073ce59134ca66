import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("BLE beacon frames")
struct BLEBeaconFrameTests {
    private func manufacturerData(_ hex: String) -> ManufacturerData {
        let bytes = Hex.bytes(hex)!
        return ManufacturerData(ADStructure(type: .manufacturerData, value: bytes[...]))!
    }

    private func serviceData(_ hex: String) -> ServiceData {
        let bytes = Hex.bytes(hex)!
        return ServiceData(ADStructure(type: .serviceData16, value: bytes[...]))!
    }

    @Test func iBeacon() throws {
        let beacon = try #require(
            IBeacon(manufacturerData("4c000215e2c56db5dffb48d2b060d0f5a71096e000640000c5")))
        #expect(beacon.proximityUUID.description == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(beacon.major == 100 && beacon.minor == 0 && beacon.measuredPowerDBm == -59)
        #expect(beacon.identity.spec == "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:0")
    }

    @Test func iBeaconIgnoresBytesAfterTheFrame() {
        #expect(IBeacon(manufacturerData("4c000215ebefd08370a247c89837e7b5634df5257420591acb64")) != nil)
    }

    @Test(arguments: [
        "4c000215426c7565436861726d426561636f6e73",  // too short
        "4c000215426c7565436861726d426561636f6e730efe1355",  // one byte short
        "15000215426c7565436861726d426561636f6e730efe1355c5",  // not Apple
        "4c001015426c7565436861726d426561636f6e730efe1355c5",  // another Apple subtype
        "4c000216426c7565436861726d426561636f6e730efe1355c5",  // wrong length byte
        "4c00",
    ])
    func notIBeacon(hex: String) {
        #expect(IBeacon(manufacturerData(hex)) == nil)
    }

    @Test func altBeacon() throws {
        let beacon = try #require(
            AltBeacon(manufacturerData("ffffbeacd3162f5af3ee494799db09756062d0fc005a0005c400")))
        #expect(beacon.companyID == 0xFFFF)
        #expect(beacon.id.description == "d3162f5af3ee494799db09756062d0fc005a0005")
        #expect(beacon.id.uuid.description == "d3162f5a-f3ee-4947-99db-09756062d0fc")
        #expect(beacon.id.major == 90 && beacon.id.minor == 5)
        #expect(beacon.referenceRSSIDBm == -60 && beacon.manufacturerReserved == 0)
        #expect(AltBeacon(manufacturerData("ffffbeacd3162f5af3ee494799db09756062d0fc005a0005c4")) == nil)
        #expect(AltBeacon(manufacturerData("ffffbeadd3162f5af3ee494799db09756062d0fc005a0005c400")) == nil)
    }

    @Test func eddystoneUIDWithAndWithoutReservedBytes() throws {
        for hex in ["aafe00f6000102030405060708090a0b0c0d0e0f", "aafe00f6000102030405060708090a0b0c0d0e0f0000"] {
            guard case .uid(let uid)? = EddystoneFrame(serviceData(hex)) else {
                Issue.record("no UID frame in \(hex)")
                continue
            }
            #expect(uid.txPowerAt0mDBm == -10)
            #expect(uid.namespace.description == "00010203040506070809")
            #expect(uid.instance.description == "0a0b0c0d0e0f")
            #expect(uid.identity.spec == "eddystone:00010203040506070809:0a0b0c0d0e0f")
        }
        #expect(EddystoneFrame(serviceData("aafe00f6000102030405060708090a0b0c0d0e")) == nil)
    }

    @Test func eddystoneURLExpansions() throws {
        guard case .url(let url)? = EddystoneFrame(serviceData("aafe10f6036d616b65636f6465002361626f7574")) else {
            Issue.record("no URL frame")
            return
        }
        #expect(url.txPowerAt0mDBm == -10)
        #expect(url.url == "https://makecode.com/#about")
        for (code, prefix) in EddystoneURL.schemePrefixes.enumerated() {
            let frame = EddystoneURL(frame: [0x10, 0x00, UInt8(code), 0x61, 0x07][...])
            #expect(frame?.url == prefix + "a.com")
        }
        for (code, expansion) in EddystoneURL.expansions.enumerated() {
            #expect(EddystoneURL(frame: [0x10, 0x00, 0x02, 0x61, UInt8(code)][...])?.url == "http://a" + expansion)
        }
    }

    @Test(arguments: ["aafe10f604", "aafe10f6036120", "aafe10f603617f", "aafe10f60361ff", "aafe10f6030e", "aafe10"])
    func eddystoneURLRefusesBadSchemesAndReservedBytes(hex: String) {
        #expect(EddystoneFrame(serviceData(hex)) == nil)
    }

    @Test func eddystoneTLM() throws {
        guard case .tlm(let tlm)? = EddystoneFrame(serviceData("aafe20000bfe1c000000070800003e7c")) else {
            Issue.record("no TLM frame")
            return
        }
        #expect(tlm.batteryMillivolts == 3070)
        #expect(tlm.temperatureCelsius == 28.0)
        #expect(tlm.advertisementCount == 1800)
        #expect(tlm.uptimeDeciseconds == 15996 && tlm.uptimeSeconds == 1599.6)
    }

    @Test func eddystoneTLMUnsupportedReadings() throws {
        guard case .tlm(let tlm)? = EddystoneFrame(serviceData("aafe2000000080000000000000000000")) else {
            Issue.record("no TLM frame")
            return
        }
        #expect(tlm.batteryMillivolts == nil && tlm.temperatureCelsius == nil)
        guard case .tlm(let cold)? = EddystoneFrame(serviceData("aafe20000bb8ff800000000100000002")) else {
            Issue.record("no TLM frame")
            return
        }
        #expect(cold.temperatureCelsius == -0.5)
    }

    @Test func otherEddystoneFrames() {
        #expect(EddystoneFrame(serviceData("aafe30f60102030405060708")) == .other(frameType: 0x30))
        #expect(EddystoneFrame(serviceData("aafe200100000000000000000000000000000000")) == .other(frameType: 0x20))
        #expect(EddystoneFrame(serviceData("aafe2101070e5b16531f95fffcffec03eb")) == .other(frameType: 0x21))
        #expect(EddystoneFrame(serviceData("aafe")) == nil)
        #expect(EddystoneFrame(serviceData("aafe200000")) == nil)
        #expect(EddystoneFrame(serviceData("0a18000102")) == nil)
    }
}
