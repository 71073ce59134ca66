import ArgumentParser
import FairFuelCore
import FairFuelParsers
import FairFuelStore

struct ProvisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Provision drivers with their tags and beacons.",
        subcommands: [DriverCommand.self])

    struct DriverCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "driver", abstract: "Add and list drivers.", subcommands: [Add.self, List.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add a driver with tags and beacons.",
                discussion: """
                    TAG: a UID in hex (any case, ':' separators allowed), or fairfuel://driver/<uuid>.
                    SPEC: ibeacon:<uuid 8-4-4-4-12>:<major>:<minor>, eddystone:<namespace 20 hex>:<instance 12 hex>,
                    or mac:AA:BB:CC:DD:EE:FF (a static random address; add /public for a public one).
                    """)

            @Argument(help: "The driver's name.")
            var name: String
            @Option(name: .customLong("tag"), help: "A tag the driver taps (repeatable).")
            var tags: [String] = []
            @Option(name: .customLong("beacon"), help: "A beacon the driver carries (repeatable).")
            var beacons: [String] = []
            @Option(help: "Phone or e-mail, for the family's records.")
            var contact: String?
            @OptionGroup var store: StoreOptions

            func validate() throws {
                for tag in tags { _ = try Self.tag(tag) }
                for spec in beacons { _ = try Self.beacon(spec) }
            }

            static func tag(_ text: String) throws -> TagIdentity {
                if text.lowercased().hasPrefix("fairfuel:") {
                    guard let uri = DriverURI(text) else {
                        throw ValidationError("tag '\(text)' is not a driver URI fairfuel://driver/<uuid 8-4-4-4-12>")
                    }
                    return .driver(uri.driverID)
                }
                do {
                    return .uid(try TagUID(parsing: text))
                } catch {
                    throw ValidationError("tag '\(text)': \(error)")
                }
            }

            static func beacon(_ text: String) throws -> BeaconIdentity {
                do {
                    return try BeaconIdentity(spec: text)
                } catch {
                    throw ValidationError("beacon '\(text)': \(error)")
                }
            }

            func run() throws {
                let tagIdentities = try tags.map(Self.tag)
                let beaconIdentities = try beacons.map(Self.beacon)
                let db = try store.open()
                do {
                    let id = try db.addDriver(name: name, contact: contact, tags: tagIdentities, beacons: beaconIdentities)
                    print("added driver \(id.rawValue) \(name) with \(tagIdentities.count) tag(s) and \(beaconIdentities.count) beacon(s)")
                } catch {
                    throw UserFacingError("\(error)")
                }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List drivers with their tags and beacons.")
            @OptionGroup var store: StoreOptions

            func run() throws {
                let db = try store.openReadOnly()
                for driver in try db.drivers() {
                    print("\(driver.id.rawValue)\t\(driver.name)")
                    for tag in driver.tags { print("\ttag \(tag)") }
                    for beacon in driver.beacons { print("\tbeacon \(beacon.spec)") }
                }
            }
        }
    }
}
