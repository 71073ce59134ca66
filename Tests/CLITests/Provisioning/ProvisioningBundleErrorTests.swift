import FairFuelConfiguration
@testable import fairfuel
import FairFuelParsers
import FairFuelStore
import Foundation
import Testing

/// Bad bundles, one defect each: the message names the key at fault, as the bundle spells it,
/// and its line (the table's header line for a key that is missing), never a CLI option.
@Suite struct ProvisioningBundleErrorTests {
    /// A whole bundle; the line numbers the cases below expect are in the comments.
    static let good = """
        format = "fairfuel-provisioning-1"

        [vehicle]
        name = "Golf"
        l_per_100km = 5.9
        mass_kg = 1430
        idle_l_per_h = 0.8
        fuel = "petrol"
        tank_l = 50
        currency = "EUR"
        units = "uk"
        untracked = "owner"
        time_zone = "Europe/London"

        [[driver]]
        name = "Anna"
        contact = "anna@example.org"
        uuid = "3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8"
        tags = ["04:A2:2B:7A"]
        beacons = ["ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1"]

        [[driver]]
        name = "Ben"

        """
    // Lines: 1 format, 3 [vehicle], 4 name, 5 l_per_100km, 6 mass_kg, 7 idle_l_per_h, 8 fuel, 9 tank_l,
    // 10 currency, 11 units, 12 untracked, 13 time_zone, 15 [[driver]], 16 name, 17 contact, 18 uuid,
    // 19 tags, 20 beacons, 22 [[driver]], 23 name.

    @Test func theGoodBundleReads() throws {
        let bundle = try ProvisioningBundle.parse(Self.good)
        #expect(bundle.vehicle?.units == "uk")
        #expect(bundle.drivers.map(\.name) == ["Anna", "Ben"])
    }

    @Test func eachDefectNamesItsKeyAndLine() {
        let cases: [(String, String, String)] = [
            ("name = \"Golf\"", "name = \"  \"", "vehicle, line 4: name cannot be empty"),
            ("l_per_100km = 5.9", "l_per_100km = 55", "vehicle, line 5: l_per_100km must be 1 to 40"),
            ("mass_kg = 1430", "mass_kg = 99", "vehicle, line 6: mass_kg must be 400 to 5000"),
            ("mass_kg = 1430", "mass_kg = \"heavy\"", "vehicle, line 6: 'mass_kg' must be a number"),
            ("idle_l_per_h = 0.8", "idle_l_per_h = 9", "vehicle, line 7: idle_l_per_h must be 0 to 5"),
            ("idle_l_per_h = 0.8", "idle_l_per_h = 0.8\nengine_l = 1.4", "vehicle, line 7: give engine_l or idle_l_per_h, not both"),
            ("fuel = \"petrol\"", "fuel = \"coal\"", "vehicle, line 8: fuel must be petrol, diesel or lpg"),
            ("tank_l = 50", "tank_l = 500", "vehicle, line 9: tank_l must be 5 to 200"),
            ("currency = \"EUR\"", "currency = \"XXX\"", "vehicle, line 10: currency 'XXX' is not an ISO 4217 code"),
            ("currency = \"EUR\"", "currency = 978", "vehicle, line 10: 'currency' must be a string"),
            ("currency = \"EUR\"\n", "", "vehicle, line 3: 'currency' is missing"),
            ("units = \"uk\"", "units = \"us\"", "vehicle, line 11: units must be metric, imperial (US gallons) or uk (imperial gallons)"),
            ("untracked = \"owner\"", "untracked = \"nobody\"", "vehicle, line 12: untracked must be owner or pro_rata"),
            ("time_zone = \"Europe/London\"", "time_zone = \"\"", "vehicle, line 13: time_zone must be a name as in /usr/share/zoneinfo"),
            ("time_zone = \"Europe/London\"", "colour = \"red\"", "vehicle, line 13: unknown key 'colour'"),
            ("name = \"Anna\"", "name = 7", "line 16: a driver's 'name' must be a non-empty string"),
            ("contact = \"anna@example.org\"", "contact = 5", "line 17: driver Anna: 'contact' must be a string"),
            ("uuid = \"3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8\"", "uuid = \"3f2a1b4c\"", "line 18: driver Anna: uuid '3f2a1b4c' is not 8-4-4-4-12 hex"),
            ("tags = [\"04:A2:2B:7A\"]", "tags = \"04:A2:2B:7A\"", "line 19: driver Anna: 'tags' must be a list of strings"),
            ("tags = [\"04:A2:2B:7A\"]", "tags = [4]", "line 19: driver Anna: 'tags' must be a list of strings, not an integer"),
            ("tags = [\"04:A2:2B:7A\"]", "tags = [\"zz\"]", "line 19: driver Anna: tag 'zz'"),
            ("beacons = [\"ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1\"]", "beacons = [\"nope\"]", "line 20: driver Anna: beacon 'nope'"),
            ("beacons = [\"ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1\"]", "beacons = \"mac:C0:11:22:33:44:55\"",
             "line 20: driver Anna: 'beacons' must be a list of strings"),
            ("name = \"Ben\"", "name = \"anna\"", "line 23: driver 'anna' is in the bundle twice"),
            ("name = \"Ben\"", "contact = \"ben@example.org\"", "line 22: a driver needs a name"),
            ("format = \"fairfuel-provisioning-1\"", "format = \"fairfuel-provisioning-2\"", "line 1: format is 'fairfuel-provisioning-2'"),
        ]
        for (line, replacement, message) in cases {
            let text = Self.good.replacingOccurrences(of: line, with: replacement)
            #expect(text != Self.good, "\(line) is not in the bundle")
            do {
                _ = try ProvisioningBundle.parse(text)
                Issue.record("\(replacement) should be refused")
            } catch {
                #expect("\(error)".contains(message), "\(replacement): \(error)")
                #expect(!"\(error)".contains("--"), "a bundle has no CLI options: \(error)")
            }
        }
    }

    @Test func aVehicleOrDriverOfTheWrongShapeNamesItsLine() {
        for (text, message) in [
            ("format = \"fairfuel-provisioning-1\"\nvehicle = \"Golf\"\n", "line 2: 'vehicle' must be a table"),
            ("format = \"fairfuel-provisioning-1\"\ndriver = \"Anna\"\n", "line 2: 'driver' must be [[driver]] tables"),
            ("format = \"fairfuel-provisioning-1\"\ncars = 2\n", "line 2: unknown key 'cars'"),
            ("name = \"Golf\"\n", "`format = \"fairfuel-provisioning-1\"` is missing"),
        ] {
            do {
                _ = try ProvisioningBundle.parse(text)
                Issue.record("\(text) should be refused")
            } catch {
                #expect("\(error)".contains(message), "\(text): \(error)")
            }
        }
    }

    /// A driver removed here and listed in the bundle comes back with their history, as
    /// `provision driver add` brings them back, rather than as a second driver of that name.
    @Test func anImportBringsBackARemovedDriverOfTheSameName() throws {
        let store = try TripStore(path: NSTemporaryDirectory() + "fairfuel-bundle-\(UUID().uuidString).db")
        let ben = try store.addDriver(name: "Ben", tags: [], beacons: [])
        try store.addDriver(name: "Cara", tags: [], beacons: [])
        _ = try store.removeDriver(named: "Ben")
        let bundle = try ProvisioningBundle.parse(Self.good)
        let report = try bundle.apply(to: store)
        #expect(report.restored == 1 && report.added == 1, "\(report.text)")
        #expect(report.lines.contains("brought back driver Ben (removed earlier; their past trips and bills are theirs as before) (0 tag(s), 0 beacon(s))"))
        #expect(report.text.hasSuffix("1 added, 1 brought back, 0 renamed, 0 updated, 0 unchanged, 0 conflict(s)\n"), "\(report.text)")
        let all = try store.drivers(includingRemoved: true)
        #expect(all.filter { $0.name.lowercased() == "ben" }.map(\.id) == [ben], "one Ben, the same person")
        #expect(try store.driver(named: "Ben")?.id == ben)
        // Again: nothing changes.
        #expect(!(try bundle.apply(to: store)).changed)
    }
}
