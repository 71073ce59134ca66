import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("BLE advertising data")
struct BLEAdvertisingDataTests {
    private func parse(_ hex: String) -> AdvertisingData {
        AdvertisingData(Hex.bytes(hex)![...])
    }

    @Test func flagsTXPowerAndNames() {
        // Flags 0x1A, TX power -12 dBm, short name "Ph", complete name "Phone".
        let data = parse("02011a020af4" + "03085068" + "060950686f6e65")
        #expect(data.flags == [.generalDiscoverable, .simultaneousLEAndBREDRController, .simultaneousLEAndBREDRHost])
        #expect(data.txPowerDBm == -12)
        #expect(data.localName == "Phone")
        #expect(data.shortLocalNameBytes.map(Array.init) == Array("Ph".utf8))
        #expect(data.structureCount == 4)
        #expect(data.malformedStructureCount == 0)
    }

    @Test func shortNameServesWhenThereIsNoCompleteOne() {
        #expect(parse("0408426172").localName == "Bar")
    }

    @Test func emptyNameIsNil() {
        #expect(parse("0109").localName == nil)
        #expect(parse("0108").localNameBytes == nil)
    }

    @Test func nameDropsTrailingNULsAndReplacesBadUTF8() {
        #expect(parse("0509610062" + "00").localName == "a\u{0}b")
        #expect(parse("0409616200").localName == "ab")
        #expect(parse("0309ff61").localName == "\u{FFFD}a")
    }

    @Test func wrongSizedScalarsAreMalformedAndIgnored() {
        let data = parse("030a0080" + "0301" + "0607")
        #expect(data.txPowerDBm == nil)
        #expect(data.flags == nil)
        #expect(data.malformedStructureCount == 2)
    }

    @Test func serviceUUIDLists() {
        // 16-bit 0x180F and 0xFEAA, 32-bit 0x12345678, 128-bit 550e8400-e29b-41d4-a716-446655440000.
        let data = parse(
            "0503" + "0f18aafe" + "0505" + "78563412" + "1107" + "00004455664416a7d4419be200840e55")
        let uuids = Array(data.serviceUUIDs)
        #expect(uuids.count == 4)
        #expect(uuids[0].uuid16 == 0x180F)
        #expect(uuids[1] == .eddystone)
        #expect(uuids[2].uuid32 == 0x1234_5678 && uuids[2].uuid16 == nil)
        #expect(uuids[3].description == "550e8400-e29b-41d4-a716-446655440000")
        #expect(uuids[3].uuid32 == nil)
        #expect(uuids[1].description == "0000feaa-0000-1000-8000-00805f9b34fb")
    }

    @Test func partialUUIDAtTheEndOfAListIsSkipped() {
        let data = parse("0403" + "0f18aa")
        #expect(Array(data.serviceUUIDs) == [BLEUUID(uuid16: 0x180F)])
        #expect(data.malformedStructureCount == 1)
    }

    @Test func serviceDataOfEachWidth() {
        let data = parse("0516" + "aafe" + "1020" + "0720" + "1a020a05" + "0aff" + "1221" + "1a020a050aff06326b0352000104090004")
        let list = Array(data.serviceData)
        #expect(list.count == 3)
        #expect(list[0].uuid == .eddystone && Array(list[0].data) == [0x10, 0x20])
        #expect(list[1].uuid.description == "050a021a-0000-1000-8000-00805f9b34fb")
        #expect(Array(list[1].data) == [0x0A, 0xFF])
        #expect(list[2].uuid.description == "00090401-0052-036b-3206-ff0a050a021a")
        #expect(Array(list[2].data) == [0x04])
    }

    @Test func serviceDataShorterThanItsUUIDIsMalformed() {
        let data = parse("021601" + "022001" + "022101")
        #expect(Array(data.serviceData).isEmpty)
        #expect(data.malformedStructureCount == 3)
    }

    @Test func emptyServiceDataIsKept() {
        let list = Array(parse("03160a18").serviceData)
        #expect(list.count == 1 && list[0].uuid.uuid16 == 0x180A && list[0].data.isEmpty)
    }

    @Test func manufacturerDataWithCompanyID() {
        let data = parse("05ff4c001005" + "03ff0101" + "02ff01")
        let list = Array(data.manufacturerData)
        #expect(list.count == 2)
        #expect(list[0].companyID == 0x004C && Array(list[0].data) == [0x10, 0x05])
        #expect(list[1].companyID == 0x0101 && list[1].data.isEmpty)
        #expect(data.malformedStructureCount == 1)
    }

    @Test func truncatedTailIsCountedAndEarlierFieldsKept() {
        let data = parse("02010605ff4c00")
        #expect(data.flags == [.generalDiscoverable, .brEDRNotSupported])
        #expect(Array(data.manufacturerData).isEmpty)
        #expect(data.truncatedByteCount == 4)
    }
}
