import FairFuelConfiguration
import FairFuelParsers
import FairFuelStore
import Foundation
import Testing

/// The bundle's text round trip, and importing it into a store.
@Suite struct ProvisioningBundleTests {
    static let fob = try! BeaconIdentity(spec: "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1")
    static let other = try! BeaconIdentity(spec: "eddystone:edd1ebeac04e5defa017:0000000000c4")
    static let phone = try! BeaconIdentity(spec: "mac:C0:11:22:33:44:55")

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
