import FairFuelConfiguration
@testable import fairfuel
import FairFuelParsers
import FairFuelStore
import Foundation
import Testing

/// A bundle import is all or nothing, and a tag or beacon the bundle gives twice is refused
/// before the store is touched, naming the bundle's line.
@Suite struct ProvisioningBundleAtomicTests {
    static let header = "format = \"fairfuel-provisioning-1\"\n"

    static func store() throws -> TripStore {
        try TripStore(path: NSTemporaryDirectory() + "fairfuel-bundle-atomic-\(UUID().uuidString).db")
    }

    @Test func aTagOrBeaconGivenTwiceIsRefusedNamingItsLines() {
        let cases: [(String, String)] = [
            // Lines: 2 [[driver]], 3 name, 4 tags, 5 [[driver]], 6 name, 7 tags.
            ("[[driver]]\nname = \"Anna\"\ntags = [\"04:A2:2B:7A\"]\n[[driver]]\nname = \"Ben\"\ntags = [\"04a22b7a\"]\n",
             "line 7: driver Ben: tag 04:A2:2B:7A is given to Anna too (line 4); a tag belongs to one driver"),
            ("[[driver]]\nname = \"Anna\"\ntags = [\"04:A2:2B:7A\", \"04A22B7A\"]\n",
             "line 4: driver Anna: tag 04:A2:2B:7A is listed twice; a tag belongs to one driver"),
            ("[[driver]]\nname = \"Anna\"\nbeacons = [\"mac:C0:11:22:33:44:55\"]\n[[driver]]\nname = \"Ben\"\nbeacons = [\"mac:c0:11:22:33:44:55\"]\n",
             "line 7: driver Ben: beacon mac:C0:11:22:33:44:55 is given to Anna too (line 4); a beacon belongs to one driver"),
        ]
        for (drivers, message) in cases {
            do {
                _ = try ProvisioningBundle.parse(Self.header + drivers)
                Issue.record("should be refused: \(drivers)")
            } catch {
                #expect("\(error)" == message, "\(error)")
            }
        }
    }

    /// A bundle made in code (no parse to catch it) that the store refuses part-way: the drivers
    /// before the refused one are not left behind, and the error names the refused driver's line.
    @Test func aDriverTheStoreRefusesUndoesTheWholeImport() throws {
        let store = try Self.store()
        try store.addDriver(name: "Cara", tags: [], beacons: [])
        let tag = try TagIdentity(provisioningText: "04:A2:2B:7A")
        var ben = ProvisioningBundle.Driver(name: "Ben", tags: [tag, tag])
        ben.line = 9
        let bundle = ProvisioningBundle(vehicle: nil, drivers: [
            ProvisioningBundle.Driver(name: "Anna", contact: "anna@example.org", tags: [try TagIdentity(provisioningText: "04:11:22:33")]),
            ProvisioningBundle.Driver(name: "Cara", contact: "cara@example.org"),
            ben,
        ])
        let before = try store.drivers()
        let error = try #require(throws: StoreError.self) { try bundle.apply(to: store) }
        #expect("\(error)".contains("line 9: driver Ben: "), "\(error)")
        #expect("\(error)".hasSuffix("; nothing was imported"), "\(error)")
        #expect(!"\(error)".contains("SQLite error"), "the store's words, not SQLite's: \(error)")
        #expect(try store.drivers() == before, "neither Anna's addition nor Cara's contact stayed")
        #expect(try store.owner(of: tag) == nil)
        // The store is usable after the rollback: the same bundle without the fault imports whole.
        let fixed = ProvisioningBundle(vehicle: nil, drivers: Array(bundle.drivers.prefix(2)) + [ProvisioningBundle.Driver(name: "Ben", tags: [tag])])
        let report = try fixed.apply(to: store)
        #expect(report.added == 2 && report.updated == 1, "\(report.text)")
        #expect(try store.drivers().map(\.name) == ["Cara", "Anna", "Ben"])
    }
}
