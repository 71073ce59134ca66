import FairFuelConfiguration
import FairFuelParsers
@testable import FairFuelService
import FairFuelStore
import Foundation
import Testing

/// Learn-beacon's choice, and the bundle's text round trip.
@Suite struct ProvisioningDeskTests {
    static let fob = try! BeaconIdentity(spec: "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1")
    static let other = try! BeaconIdentity(spec: "eddystone:edd1ebeac04e5defa017:0000000000c4")
    static let phone = try! BeaconIdentity(spec: "mac:C0:11:22:33:44:55")

    static func seen(_ identity: BeaconIdentity, _ sightings: Int, _ rssi: Double?, nearForMs: Int64 = 5_000) -> ProvisioningDesk.Sighting {
        .init(identity: identity, sightings: sightings, rssiDBm: rssi, nearForMs: nearForMs)
    }

    @Test func theOnlyBeaconNearForTheHoldIsChosen() {
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -48), Self.seen(Self.phone, 9, -80, nearForMs: 0)], holdMs: 3_000) == .chosen(Self.fob, rssiDBm: -48))
        // 8 dB or more apart: the weaker one is not "equally close".
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -48), Self.seen(Self.other, 5, -56)], holdMs: 3_000) == .chosen(Self.fob, rssiDBm: -48))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -48), Self.seen(Self.other, 5, -55.5)], holdMs: 3_000) == .tooClose(Self.fob, Self.other, -48, -55.5))
    }

    @Test func twoBeaconsWithinTheMarginRefuseEvenIfOneWasHeldLonger() {
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -50), Self.seen(Self.other, 5, -52.5)], holdMs: 3_000) == .tooClose(Self.fob, Self.other, -50, -52.5))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 5, -50), Self.seen(Self.other, 1, -49, nearForMs: 0)], holdMs: 3_000) == .tooClose(Self.fob, Self.other, -50, -49))
    }

    @Test func tooFewSightingsTooShortTooWeakOrLostIsNone() {
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 2, -45)], holdMs: 3_000) == .none(strongest: "\(Self.fob.spec) at -45 dBm"))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 9, -45, nearForMs: 2_000)], holdMs: 3_000) == .none(strongest: "\(Self.fob.spec) at -45 dBm"))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 9, -70, nearForMs: 0)], holdMs: 3_000) == .none(strongest: "\(Self.fob.spec) at -70 dBm"))
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 9, nil)], holdMs: 3_000) == .none(strongest: nil))
        // A weak second beacon does not block a near one.
        #expect(ProvisioningDesk.choose([Self.seen(Self.fob, 3, -60), Self.seen(Self.other, 9, -70, nearForMs: 0)], holdMs: 3_000) == .chosen(Self.fob, rssiDBm: -60))
    }

    @Test func randomDriverIDsAreVersion4() {
        let a = UUID128.random()
        let b = UUID128.random()
        #expect(a != b)
        #expect(a.description.dropFirst(14).first == "4")
        #expect("89ab".contains(a.description.dropFirst(19).first!))
    }

    @Test func aBundleReadsBackAsWritten() throws {
        let bundle = ProvisioningBundle(
            vehicle: VehicleProfile(
                name: "Blue \"van\"", ratedLitersPer100km: 8.1, massKilograms: 1900, idleLitersPerHour: 1.1, fuelType: "diesel",
                tankLiters: 70, currency: "GBP", currencyMinorDigits: 2, units: "imperial", untrackedPolicy: .proRata, fuelScale: 1),
            drivers: [
                .init(name: "Anna", contact: "anna@example.org", tags: [.uid(try TagUID(parsing: "04A22B7A3C5D80"))], beacons: [Self.fob]),
                .init(name: "Ben", uuid: UUID128("3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8"), tags: [.driver(UUID128("3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8")!)], beacons: [Self.other, Self.phone]),
                .init(name: "Cara"),
            ])
        let text = bundle.render()
        #expect(try ProvisioningBundle.parse(text) == bundle)
        #expect(text.contains("[[driver]]\nname = \"Ben\""))
        #expect(text.contains("tags = [\"fairfuel://driver/3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8\"]"))
        #expect(throws: ProvisioningTextError.self) { try ProvisioningBundle.parse(text.replacingOccurrences(of: "GBP", with: "XXX")) }
        #expect(throws: ProvisioningTextError.self) { try ProvisioningBundle.parse(text + "colour = \"red\"\n") }
    }

    @Test func importingTwiceChangesNothingTheSecondTime() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-bundle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let source = try TripStore(path: directory + "/a.db")
        try source.addDriver(name: "Anna", tags: [.uid(try TagUID(parsing: "04A22B7A"))], beacons: [Self.fob])
        try source.addDriver(name: "Ben", tags: [], beacons: [Self.other])
        let bundle = try ProvisioningBundle(store: source)
        let target = try TripStore(path: directory + "/b.db")
        try target.addDriver(name: "Cara", tags: [], beacons: [Self.other])
        let first = try bundle.apply(to: target)
        #expect(first.added == 2)
        #expect(first.conflicts == 1)
        #expect(first.lines.contains("conflict: beacon \(Self.other.spec) is bound to Cara here; the bundle gives it to Ben (left as is)"))
        let second = try bundle.apply(to: target)
        #expect(!second.changed)
        #expect(second.text.hasSuffix("nothing changed (1 conflict(s) left as they are)\n"))
        #expect(try target.drivers().map(\.name) == ["Cara", "Anna", "Ben"])
    }
}
