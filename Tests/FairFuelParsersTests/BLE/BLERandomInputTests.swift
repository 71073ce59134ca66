import FairFuelCore
import Foundation
import Testing
import TestSupport

@testable import FairFuelParsers

/// Seeded random advertising data through every BLE parser: no crash, and the counts add up.
///
/// A longer run (same seeds, more inputs):
///
///     FAIRFUEL_RANDOM_INPUTS=20000000 swift test --scratch-path .build-ble -c release \
///         --filter BLERandomInputTests
@Suite("BLE random input")
struct BLERandomInputTests {
    static var inputCount: Int {
        ProcessInfo.processInfo.environment["FAIRFUEL_RANDOM_INPUTS"].flatMap(Int.init) ?? 200_000
    }

    /// Random bytes half the time; otherwise plausible structures (beacon frames included) with
    /// random lengths, bytes and cuts, so that the deeper decoders see input too.
    static func input(_ generator: inout SeededGenerator) -> [UInt8] {
        if Bool.random(using: &generator) {
            let count = Int.random(in: 0...(Int.random(in: 0...9, using: &generator) == 0 ? 255 : 40), using: &generator)
            return generator.bytes(count)
        }
        let templates: [[UInt8]] = [
            [0x02, 0x01, 0x06],
            [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + [UInt8](repeating: 0xE2, count: 21),
            [0x1B, 0xFF, 0xFF, 0xFF, 0xBE, 0xAC] + [UInt8](repeating: 0x5A, count: 22),
            [0x03, 0x03, 0xAA, 0xFE],
            [0x15, 0x16, 0xAA, 0xFE, 0x00, 0xF6] + [UInt8](repeating: 0x63, count: 16),
            [0x0C, 0x16, 0xAA, 0xFE, 0x10, 0xF6, 0x03] + Array("ruu.vi".utf8) + [0x07],
            [0x11, 0x16, 0xAA, 0xFE, 0x20, 0x00, 0x0B, 0xFE, 0x1C, 0x00] + [UInt8](repeating: 0, count: 8),
            [0x06, 0x09] + Array("Phone".utf8),
            [0x11, 0x07] + [UInt8](repeating: 0x9E, count: 16),
            [0x05, 0x20, 0x1A, 0x02, 0x0A, 0x05],
            [0x00],
        ]
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            bytes += templates.randomElement(using: &generator)!
        }
        for _ in 0..<Int.random(in: 0...3, using: &generator) where !bytes.isEmpty {
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
        if Bool.random(using: &generator) { bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator)) }
        return bytes
    }

    @Test func randomAdvertisingData() {
        var generator = SeededGenerator(seed: 0xB1E_AD5)
        var totals = (structures: 0, truncated: 0, iBeacons: 0, eddystone: 0, identities: 0)
        for _ in 0..<Self.inputCount {
            let bytes = Self.input(&generator)
            let data = AdvertisingData(bytes[...])

            var iterator = data.structures.makeIterator()
            var structureBytes = 0
            var structureCount = 0
            var manufacturerCount = 0
            var serviceDataCount = 0
            var uuidCount = 0
            while let structure = iterator.next() {
                structureCount += 1
                structureBytes += 2 + structure.value.count
                if structure.type == .manufacturerData, structure.value.count >= 2 { manufacturerCount += 1 }
                if let width = structure.type.serviceDataUUIDWidth, structure.value.count >= width { serviceDataCount += 1 }
                if let width = structure.type.serviceUUIDListWidth { uuidCount += structure.value.count / width }
            }
            guard structureBytes + data.paddingByteCount + data.truncatedByteCount == bytes.count,
                structureCount == data.structureCount,
                iterator.paddingByteCount == data.paddingByteCount,
                iterator.truncatedByteCount == data.truncatedByteCount,
                Array(data.manufacturerData).count == manufacturerCount,
                Array(data.serviceData).count == serviceDataCount,
                Array(data.serviceUUIDs).count == uuidCount,
                data.localName == nil || data.localNameBytes?.isEmpty == false
            else {
                Issue.record("inconsistent counts for \(Hex.string(bytes))")
                return
            }
            let iBeacons = data.manufacturerData.compactMap(IBeacon.init)
            let frames = data.serviceData.compactMap(EddystoneFrame.init)
            for case .url(let url) in frames { _ = url.url }
            let identities = BeaconIdentities(
                address: BLEAddress(rawValue: generator.next()),
                addressType: Bool.random(using: &generator) ? .public : .random, data: bytes[...])
            guard identities.count <= BeaconIdentities.capacity,
                iBeacons.allSatisfy({ beacon in identities.contains(beacon.identity) || identities.droppedCount > 0 }),
                identities.allSatisfy({ identity in
                    if case .iBeacon = identity { iBeacons.contains { $0.identity == identity } } else { true }
                })
            else {
                Issue.record("identities disagree with frames for \(Hex.string(bytes))")
                return
            }
            totals.structures += structureCount
            totals.truncated += data.truncatedByteCount > 0 ? 1 : 0
            totals.iBeacons += iBeacons.count
            totals.eddystone += frames.count
            totals.identities += identities.count
        }
        print("BLE random input: \(Self.inputCount) inputs, \(totals.structures) structures, \(totals.truncated) truncated, \(totals.iBeacons) iBeacons, \(totals.eddystone) Eddystone frames, \(totals.identities) identities")
        #expect(totals.iBeacons > 0 && totals.eddystone > 0 && totals.truncated > 0)
    }
}
