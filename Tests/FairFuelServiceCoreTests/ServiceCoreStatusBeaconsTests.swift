import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers
import FairFuelServiceCore
import Foundation
import Testing

/// `status`'s beacons as a technician reads them: one line per fob heard, whatever number of
/// identities its advertisements carry (an iBeacon from a stable address is two), with the
/// driver it belongs to and what the presence rule makes of it.
@Suite struct ServiceCoreStatusBeaconsTests {
    static let fobUUID = UUID128(bytes: [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0][...])
    static let annaFob = BeaconIdentity.iBeacon(proximityUUID: fobUUID, major: 1, minor: 7)
    /// A static random address (top bits 11): stable, so it is an identity of its own.
    static let annaFobAddress = BLEAddress(rawValue: 0xC1_22_33_44_55_66)
    static let strangerAddress = BLEAddress(rawValue: 0x00_1A_7D_DA_71_13)

    static func iBeaconData(major: UInt16, minor: UInt16) -> [UInt8] {
        [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + fobUUID.bytes
            + [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), 0xC5]
    }

    static func beacons(_ bench: ServiceCoreTests.Bench, at ms: Int64) -> [ServiceStatus.Fob] {
        bench.core.status(at: LinkMilliseconds(ms)).beacons
    }

    @Test func eachFobIsListedOnceWithItsOtherIdentitiesAndItsDriver() throws {
        let bench = try ServiceCoreTests.Bench(annaBeacon: Self.annaFob)
        bench.open()
        bench.hello(at: 10)
        for second in 1...5 {
            let ms = Int64(second) * 1_000
            bench.mcu(.bleAdvertisement(BLEAdvertisementReport(
                mcuTimeMs: UInt32(ms), address: Self.annaFobAddress, addressType: .random, advertisingType: .nonConnectableUndirected,
                rssiDBm: -55, data: Self.iBeaconData(major: 1, minor: 7)[...])), at: ms)
            // Somebody else's iBeacon from a public address: also two identities, no driver.
            bench.mcu(.bleAdvertisement(BLEAdvertisementReport(
                mcuTimeMs: UInt32(ms + 5), address: Self.strangerAddress, addressType: .public, advertisingType: .nonConnectableUndirected,
                rssiDBm: -95, data: Self.iBeaconData(major: 9, minor: 9)[...])), at: ms + 5)
        }
        let beacons = Self.beacons(bench, at: 5_100)
        #expect(beacons.count == 2, "one line per fob: \(beacons)")
        let anna = beacons.filter { $0.driver == "Anna" }
        #expect(anna.count == 1, "Anna's fob once: \(beacons)")
        #expect(anna.first?.beacon == Self.annaFob.spec, "the identity she is provisioned with leads")
        #expect(anna.first?.also == [BeaconIdentity.address(Self.annaFobAddress).spec])
        #expect(anna.first?.present == true)
        #expect(anna.first.map { $0.heardAgoMs >= 0 && $0.heardAgoMs < 1_000 } == true, "\(beacons)")
        let stranger = try #require(beacons.first { $0.driver == nil })
        #expect(stranger.also == [BeaconIdentity.address(Self.strangerAddress).spec])
        #expect(stranger.present == false, "-95 dBm is below the presence threshold")
        // No identity shows up twice, as a line of its own or beside another.
        let specs = beacons.flatMap { [$0.beacon] + $0.also }
        #expect(Set(specs).count == specs.count && specs.count == 4, "\(specs)")
    }
}
