import FairFuelCore
import Foundation
import Testing

@testable import FairFuelParsers

/// Upstream test vectors: the AD structures, beacon frames and fields each decodes to must
/// equal the upstream decode. Differences by design are listed in `Fixtures/ble/NOTES.md`.
@Suite("BLE vectors")
struct BLEVectorTests {
    /// The corpus' `ad` list as structures, and the byte count of its truncated entry.
    private func expectedStructures(_ list: [[String: Any]]) -> (structures: [ADStructure], truncated: Int) {
        var structures: [ADStructure] = []
        var truncated = 0
        for entry in list {
            if let raw = entry["raw"] as? String {
                truncated += raw.count / 2
            } else if let type = entry["type"] as? Int, let value = entry["value"] as? String {
                structures.append(ADStructure(type: ADType(rawValue: UInt8(type)), value: Hex.bytes(value)![...]))
            }
        }
        return (structures, truncated)
    }

    private func structures(of data: ArraySlice<UInt8>) -> (structures: [ADStructure], truncated: Int) {
        var iterator = ADStructures(data).makeIterator()
        var list: [ADStructure] = []
        while let structure = iterator.next() { list.append(structure) }
        return (list, iterator.truncatedByteCount)
    }

    private func compareStructures(
        _ data: ArraySlice<UInt8>, _ list: [[String: Any]], _ name: String, _ tally: inout VectorTally
    ) {
        let expected = expectedStructures(list)
        let actual = structures(of: data)
        tally.equal(
            actual.structures.map { "\($0.type.rawValue):\(Hex.string($0.value))" },
            expected.structures.map { "\($0.type.rawValue):\(Hex.string($0.value))" }, "\(name): AD structures")
        tally.equal(actual.truncated, expected.truncated, "\(name): truncated bytes")
    }

    /// Checks what the corpus' tags say about beacon frames against this parser's frames.
    private func checkTags(_ tags: [String], _ data: AdvertisingData, _ name: String, _ tally: inout VectorTally) {
        let manufacturerData = Array(data.manufacturerData)
        let appleOther = manufacturerData.contains { $0.companyID == 0x004C && IBeacon($0) == nil }
        tally.equal(!manufacturerData.compactMap(IBeacon.init).isEmpty, tags.contains("ibeacon"), "\(name): iBeacon")
        tally.equal(!manufacturerData.compactMap(AltBeacon.init).isEmpty, tags.contains("altbeacon"), "\(name): AltBeacon")
        // The corpus tags Apple data that is not an iBeacon only from two bytes of data up.
        if tags.contains("apple_other") { tally.check(appleOther, "\(name): other Apple data") }
        let kinds = data.serviceData.compactMap(EddystoneFrame.init).map { frame -> String in
            switch frame {
            case .uid: "eddystone_uid"
            case .url: "eddystone_url"
            case .tlm: "eddystone_tlm"
            case .other: "eddystone_other"
            }
        }
        tally.equal(Set(kinds), Set(tags.filter { $0.hasPrefix("eddystone") }), "\(name): Eddystone frames")
    }

    // MARK: ble_monitor

    @Test func bleMonitorHCIReports() throws {
        let vectors = try BLEFixtures.jsonLines(at: BLEFixtures.bundled("ble_monitor", "ble_monitor_hci_vectors.jsonl"))
        #expect(vectors.count == 288)
        var passed = 0
        var beaconFieldChecks = 0
        for vector in vectors {
            let name = vector["test"] as? String ?? "?"
            let decoded = try #require(vector["decoded"] as? [String: Any])
            let report = try HCIAdvertisingReport(packet: BLEFixtures.bytes(vector["hci_packet_hex"] as! String))
            let tags = decoded["tags"] as? [String] ?? []
            var tally = VectorTally()
            tally.equal(report.address.description, decoded["mac"] as? String ?? "", "\(name): address")
            tally.equal(Int(report.addressType), decoded["addr_type"] as? Int ?? -1, "\(name): address type")
            tally.equal(Int(report.rssiDBm), decoded["rssi"] as? Int ?? 0, "\(name): RSSI")
            tally.equal(report.data.count, decoded["adv_data_len"] as? Int ?? -1, "\(name): data length")
            compareStructures(report.data, decoded["ad"] as! [[String: Any]], name, &tally)
            let data = AdvertisingData(report.data)
            checkTags(tags, data, name, &tally)
            beaconFieldChecks += checkBeaconFields(vector["expected"] as? [String: Any], data, name, &tally)
            if tags.contains("eddystone_url"), name.contains("ruuvitag") {
                let urls = data.serviceData.compactMap(EddystoneFrame.init).compactMap { frame -> String? in
                    if case .url(let url) = frame { url.url } else { nil }
                }
                tally.check(urls.first?.hasPrefix("https://ruu.vi/#") == true, "\(name): Ruuvi URL \(urls)")
            }
            if tally.failureCount == 0 { passed += 1 }
        }
        print("ble_monitor: \(passed)/\(vectors.count) HCI reports pass; \(beaconFieldChecks) beacon decodes compared field by field")
        #expect(passed == vectors.count)
        #expect(beaconFieldChecks == 5)
    }

    /// Compares the iBeacon / AltBeacon fields ble_monitor's expected messages state; returns how many.
    private func checkBeaconFields(
        _ expected: [String: Any]?, _ data: AdvertisingData, _ name: String, _ tally: inout VectorTally
    ) -> Int {
        var checks = 0
        for key in ["sensor_msg", "tracker_msg"] {
            guard let message = expected?[key] as? [String: Any], let uuid = message["uuid"] as? String else {
                continue
            }
            let manufacturerData = Array(data.manufacturerData)
            if let beacon = manufacturerData.lazy.compactMap(IBeacon.init).first {
                tally.equal(Hex.string(beacon.proximityUUID.bytes), uuid, "\(name): UUID")
                if let major = message["major"] as? Int { tally.equal(Int(beacon.major), major, "\(name): major") }
                if let minor = message["minor"] as? Int { tally.equal(Int(beacon.minor), minor, "\(name): minor") }
                if let power = message["measured power"] as? Int {
                    tally.equal(Int(beacon.measuredPowerDBm), power, "\(name): measured power")
                }
                checks += 1
            } else if let beacon = manufacturerData.lazy.compactMap(AltBeacon.init).first {
                tally.equal(Hex.string(beacon.id.uuid.bytes), uuid, "\(name): UUID")
                tally.equal(Int(beacon.id.major), message["major"] as? Int ?? -1, "\(name): major")
                tally.equal(Int(beacon.id.minor), message["minor"] as? Int ?? -1, "\(name): minor")
                tally.equal(Int(beacon.referenceRSSIDBm), message["measured power"] as? Int ?? 0, "\(name): power")
                checks += 1
            } else {
                tally.check(false, "\(name): expected a beacon with UUID \(uuid)")
            }
        }
        return checks
    }

    // MARK: bluetooth-data-tools

    @Test func bluetoothDataToolsGAPVectors() throws {
        let vectors = try BLEFixtures.jsonLines(at: BLEFixtures.bundled("bluetooth-data-tools", "gap_ad_vectors.jsonl"))
        #expect(vectors.count == 49)
        var passed = 0
        for vector in vectors {
            let name = vector["test"] as? String ?? "?"
            var expected: [String: Any] = [:]
            for (key, value) in vector["expected"] as! [String: Any] {
                expected[key.hasPrefix("adv.") ? String(key.dropFirst(4)) : key] = value
            }
            let chunks = try (vector["ad_chunks_hex"] as! [String]).map(BLEFixtures.bytes)
            let decodedChunks = vector["ad_decoded"] as! [[[String: Any]]]
            var tally = VectorTally()
            // Merge advertisement and scan response as bluetooth-data-tools does.
            var completeName: String?
            var shortName: String?
            var uuids: [String] = []
            var serviceData: [String: String] = [:]
            var manufacturerData: [String: String] = [:]
            var txPower: Int?
            for (index, chunk) in chunks.enumerated() {
                compareStructures(chunk[...], decodedChunks[index], "\(name) chunk \(index)", &tally)
                let data = AdvertisingData(chunk[...])
                if completeName == nil, let bytes = data.completeLocalNameBytes {
                    completeName = String(decoding: bytes, as: UTF8.self)
                }
                if shortName == nil, let bytes = data.shortLocalNameBytes {
                    shortName = String(decoding: bytes, as: UTF8.self)
                }
                for uuid in data.serviceUUIDs where !uuids.contains(uuid.description) {
                    uuids.append(uuid.description)
                }
                for item in data.serviceData { serviceData[item.uuid.description] = Hex.string(item.data) }
                for item in data.manufacturerData { manufacturerData[String(item.companyID)] = Hex.string(item.data) }
                if txPower == nil { txPower = data.txPowerDBm.map(Int.init) }
                checkTags(vector["tags"] as? [String] ?? [], data, name, &tally)
            }
            if expected.keys.contains("local_name") {
                tally.equal(completeName ?? shortName, expected["local_name"] as? String, "\(name): local name")
            }
            if let list = expected["service_uuids"] as? [String] {
                tally.equal(uuids, list, "\(name): service UUIDs")
            }
            if let dictionary = expected["service_data"] as? [String: [String: String]] {
                tally.equal(serviceData, dictionary.mapValues { $0["bytes_hex"]! }, "\(name): service data")
            }
            if let dictionary = expected["manufacturer_data"] as? [String: [String: String]] {
                tally.equal(manufacturerData, dictionary.mapValues { $0["bytes_hex"]! }, "\(name): manufacturer data")
            }
            if expected.keys.contains("tx_power") {
                tally.equal(txPower, expected["tx_power"] as? Int, "\(name): TX power")
            }
            if tally.failureCount == 0 { passed += 1 }
        }
        print("bluetooth-data-tools: \(passed)/\(vectors.count) vectors pass")
        #expect(passed == vectors.count)
    }

    // MARK: ibeacon-ble

    /// The corpus holds BlueZ service infos, not bytes: they are written back as AD structures.
    @Test func iBeaconBLEServiceInfos() throws {
        let vectors = try BLEFixtures.jsonLines(at: BLEFixtures.bundled("ibeacon-ble", "ibeacon_ble_service_infos.jsonl"))
        #expect(vectors.count == 9)
        var passed = 0
        for vector in vectors {
            let name = vector["name"] as? String ?? "?"
            let info = vector["service_info"] as! [String: Any]
            var bytes: [UInt8] = []
            if let localName = info["name"] as? String { bytes += BLEFixtures.structure(0x09, Array(localName.utf8)) }
            for (company, value) in info["manufacturer_data"] as! [String: [String: String]] {
                let id = UInt16(company)!
                bytes += BLEFixtures.structure(0xFF, [UInt8(id & 0xFF), UInt8(id >> 8)] + (try BLEFixtures.bytes(value["bytes_hex"]!)))
            }
            for (uuidText, value) in info["service_data"] as! [String: [String: String]] {
                let short = try #require(BLEUUID(UUID128(uuidText)!).uuid16)
                bytes += BLEFixtures.structure(0x16, [UInt8(short & 0xFF), UInt8(short >> 8)] + (try BLEFixtures.bytes(value["bytes_hex"]!)))
            }
            let tags = vector["tags"] as? [String] ?? []
            var tally = VectorTally()
            let data = AdvertisingData(bytes[...])
            tally.equal(data.localName, info["name"] as? String, "\(name): name")
            checkTags(tags, data, name, &tally)
            let identities = BeaconIdentities(
                address: BLEAddress(info["address"] as! String)!, addressType: .random, data: bytes[...])
            let hasIBeacon = identities.contains { if case .iBeacon = $0 { true } else { false } }
            tally.equal(hasIBeacon, tags.contains("ibeacon"), "\(name): iBeacon identity")
            if tally.failureCount == 0 { passed += 1 }
        }
        print("ibeacon-ble: \(passed)/\(vectors.count) service infos pass")
        #expect(passed == vectors.count)
    }

    /// The values ibeacon-ble's tests assert for SERVICE_INFO (a BlueCharm beacon), and its TLM.
    @Test func iBeaconBLEBlueCharmValues() throws {
        let bytes = try BLEFixtures.bytes(
            "1aff4c000215426c7565436861726d426561636f6e730efe1355c5" + "1116aafe20000bfe1c000000070800003e7c")
        let data = AdvertisingData(bytes[...])
        let beacon = try #require(data.manufacturerData.lazy.compactMap(IBeacon.init).first)
        #expect(beacon.proximityUUID == UUID128("426c7565-4368-6172-6d42-6561636f6e73"))
        #expect(beacon.major == 3838 && beacon.minor == 4949 && beacon.measuredPowerDBm == -59)
        guard case .tlm(let tlm)? = data.serviceData.lazy.compactMap(EddystoneFrame.init).first else {
            Issue.record("no TLM frame")
            return
        }
        #expect(tlm.batteryMillivolts == 3070 && tlm.temperatureCelsius == 28 && tlm.advertisementCount == 1800)
    }

    // MARK: aioblescan

    @Test func aioblescanHCIPackets() throws {
        let vectors = try BLEFixtures.jsonLines(at: BLEFixtures.bundled("aioblescan", "aioblescan_hci_vectors.jsonl"))
        #expect(vectors.count == 5)
        var passed = 0
        for (index, vector) in vectors.enumerated() {
            let name = vector["test"] as? String ?? "aioblescan #\(index)"
            let decoded = vector["decoded"] as! [String: Any]
            let report = try HCIAdvertisingReport(packet: BLEFixtures.bytes(vector["hci_packet_hex"] as! String))
            var tally = VectorTally()
            tally.equal(report.address.description, decoded["mac"] as? String ?? "", "\(name): address")
            tally.equal(Int(report.rssiDBm), decoded["rssi"] as? Int ?? 0, "\(name): RSSI")
            if let row = vector["param_row"] as? [Any] {
                tally.equal(report.address.description.lowercased(), row[0] as? String ?? "", "\(name): address")
                tally.equal(Int(report.rssiDBm), row[6] as? Int ?? 0, "\(name): RSSI")
            }
            compareStructures(report.data, decoded["ad"] as! [[String: Any]], name, &tally)
            let data = AdvertisingData(report.data)
            checkTags(decoded["tags"] as? [String] ?? [], data, name, &tally)
            let frame = data.serviceData.lazy.compactMap(EddystoneFrame.init).first
            switch (name, frame) {
            case ("test_eddystone_url", .url(let url)?):
                // aioblescan's test expects this URL and TX power.
                tally.equal(url.url, "https://makecode.com/#about", "\(name): URL")
                tally.equal(url.txPowerAt0mDBm, -10, "\(name): TX power")
            case ("test_eddystone_uid", .uid(let uid)?):
                tally.equal(uid.namespace.description, "00000000000000000063", "\(name): namespace")
                tally.equal(uid.instance.description, "000000000058", "\(name): instance")
                tally.equal(uid.txPowerAt0mDBm, -10, "\(name): TX power")
                let identities = BeaconIdentities(
                    address: report.address, addressType: BLEAddressType(rawValue: report.addressType)!,
                    data: report.data)
                tally.equal(
                    identities.map(\.spec), ["eddystone:00000000000000000063:000000000058", "mac:F1:55:90:65:29:DC"],
                    "\(name): identities")
            case ("test_eddystone_url", _), ("test_eddystone_uid", _):
                tally.check(false, "\(name): no Eddystone frame of the right kind")
            default:
                tally.equal(data.serviceData.map(\.uuid.uuid16), [0x181A], "\(name): service data UUID")
            }
            if tally.failureCount == 0 { passed += 1 }
        }
        print("aioblescan: \(passed)/\(vectors.count) HCI packets pass")
        #expect(passed == vectors.count)
    }

    // MARK: theengs (GPL-3.0: read in place, never copied)

    @Test(
        .enabled(
            if: BLEFixtures.theengsPresent,
            "theengs' vectors are GPL-3.0, so they are not copied into this package; they are read from ../shared/corpus/ble/theengs/, which is absent"
        ))
    func theengsIBeaconsAndNoCrash() throws {
        let vectors = try BLEFixtures.jsonLines(at: URL(fileURLWithPath: BLEFixtures.theengsPath))
        #expect(vectors.count == 474)
        var iBeaconCount = 0
        var fieldChecks = 0
        var structuresRead = 0
        for vector in vectors {
            let name = vector["test_name"] as? String ?? "?"
            var payloads: [[UInt8]] = []
            var built: [UInt8] = []
            if let localName = vector["name"] as? String, localName.utf8.count < 255 {
                built += BLEFixtures.structure(0x09, Array(localName.utf8))
            }
            if let hex = vector["manufacturerdata"] as? String, let value = Hex.bytes(hex) {
                payloads.append(value)
                if value.count < 255 { built += BLEFixtures.structure(0xFF, value) }
                if hex.lowercased().hasPrefix("4c000215") {
                    iBeaconCount += 1
                    let manufacturerData = try #require(ManufacturerData(ADStructure(type: .manufacturerData, value: value[...])))
                    let beacon = try #require(IBeacon(manufacturerData), "\(name): iBeacon")
                    let expected = vector["expected"] as? [String: Any] ?? [:]
                    if let uuid = expected["uuid"] as? String {
                        #expect(Hex.string(beacon.proximityUUID.bytes) == uuid, "\(name)")
                        #expect(Int(beacon.major) == expected["major"] as? Int, "\(name)")
                        if let minor = expected["minor"] as? Int { #expect(Int(beacon.minor) == minor, "\(name)") }
                        if let power = expected["txpower"] as? Int { #expect(Int(beacon.measuredPowerDBm) == power, "\(name)") }
                        fieldChecks += 1
                    }
                }
            }
            if let hex = vector["servicedata"] as? String, let value = Hex.bytes(hex) {
                payloads.append(value)
                if let uuidText = vector["servicedatauuid"] as? String,
                    let short = UInt16(uuidText.dropFirst(2), radix: 16), value.count < 253
                {
                    built += BLEFixtures.structure(0x16, [UInt8(short & 0xFF), UInt8(short >> 8)] + value)
                }
            }
            // Every payload is also read as if it were whole advertising data (hostile input).
            for payload in payloads + [built] {
                let data = AdvertisingData(payload[...])
                structuresRead += data.structureCount
                _ = data.localName
                _ = data.manufacturerData.compactMap(IBeacon.init)
                _ = data.manufacturerData.compactMap(AltBeacon.init)
                _ = data.serviceData.compactMap(EddystoneFrame.init).map { frame -> String in
                    if case .url(let url) = frame { url.url } else { "" }
                }
                _ = Array(data.serviceUUIDs)
                _ = BeaconIdentities(address: BLEAddress(rawValue: 0xC0FF_EE00_0001), addressType: .random, data: payload[...])
            }
        }
        print("theengs: \(iBeaconCount) iBeacons decode (\(fieldChecks) with upstream fields compared); all \(vectors.count) vectors' payloads read without a crash")
        #expect(iBeaconCount == 22)
        #expect(fieldChecks == 10)
        #expect(structuresRead > 0)
    }
}
