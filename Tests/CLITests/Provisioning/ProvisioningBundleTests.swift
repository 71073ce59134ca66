import FairFuelConfiguration
@testable import fairfuel
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

    /// A technician's hand-written `[vehicle]`, with `extra` lines after the fixed ones.
    static func handWritten(_ extra: String, fuel: String = "petrol") -> String {
        """
        format = "fairfuel-provisioning-1"

        [vehicle]
        name = "Golf"
        l_per_100km = 5.9
        mass_kg = 1430
        fuel = "\(fuel)"
        tank_l = 50
        currency = "EUR"
        units = "metric"
        untracked = "owner"
        \(extra)

        """
    }

    @Test func aHandWrittenVehicleMayGiveItsEngineSizeForTheIdleRate() throws {
        let petrol = try #require(try ProvisioningBundle.parse(Self.handWritten("engine_l = 3.6")).vehicle)
        #expect(petrol.idleLitersPerHour == 1.8, "0.5 L/h per litre of petrol")
        #expect(!petrol.isDefaultCar)
        let diesel = try #require(try ProvisioningBundle.parse(Self.handWritten("engine_l = 1.6", fuel: "diesel")).vehicle)
        #expect(diesel.idleLitersPerHour == diesel.idleLitersPerHour(engineLiters: 1.6))
        #expect(diesel.idleLitersPerHour < 0.8, "a diesel idles on less fuel than petrol for the same energy")
        let given = try #require(try ProvisioningBundle.parse(Self.handWritten("idle_l_per_h = 0.7")).vehicle)
        #expect(given.idleLitersPerHour == 0.7)
        // The export writes the idle rate, which reads back as it was.
        let bundle = ProvisioningBundle(vehicle: petrol, drivers: [])
        #expect(try ProvisioningBundle.parse(bundle.render()) == bundle)

        for (extra, message) in [
            ("engine_l = 2.0\nidle_l_per_h = 1.0", "give engine_l or idle_l_per_h, not both"),
            ("engine_l = 12", "engine_l must be 0.5 to 8"),
            ("engine_l = \"big\"", "'engine_l' must be a number"),
            ("", "'idle_l_per_h' is missing"),
            ("engine_l = 1.5\nengine_cc = 1498", "line 13: unknown key 'engine_cc'"),
        ] {
            #expect {
                try ProvisioningBundle.parse(Self.handWritten(extra))
            } throws: { error in
                "\(error)".contains(message)
            }
        }
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
