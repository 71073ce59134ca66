import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelParsers
import FairFuelPull
import FairFuelService
import FairFuelStore

struct ProvisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Provision drivers with their tags and beacons.",
        discussion: """
            Every command works whether or not the service runs: it writes the store, then asks a
            running service (through its control socket) to reload, which pushes a new BLE filter.
            learn-tag, learn-beacon and write-tag need the running service: they use the dongle's MCU.
            """,
        subcommands: [DriverCommand.self, LearnTag.self, LearnBeacon.self, WriteTag.self, Export.self, Import.self,
                      PairingSecretCommand.self])

    struct DriverCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "driver", abstract: "Add, list, rename and remove drivers.",
            subcommands: [Add.self, List.self, Rename.self, Remove.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add a driver with tags and beacons.",
                discussion: """
                    TAG: a UID in hex (any case, ':' separators allowed), or fairfuel://driver/<uuid>.
                    SPEC: ibeacon:<uuid 8-4-4-4-12>:<major>:<minor>, eddystone:<namespace 20 hex>:<instance 12 hex>,
                    or mac:AA:BB:CC:DD:EE:FF (a static random address; add /public for a public one).
                    A removed driver of the same name is brought back, with their past trips and bills
                    (--new-person: someone else of that name).
                    """)

            @Argument(help: "The driver's name (1 to 64 characters).", transform: CheckedArgument.name)
            var name: String
            @Option(name: .customLong("tag"), help: "A tag the driver taps (repeatable).")
            var tags: [String] = []
            @Option(name: .customLong("beacon"), help: "A beacon the driver carries (repeatable).")
            var beacons: [String] = []
            @Option(help: "Phone or e-mail, for the family's records.", transform: CheckedArgument.text)
            var contact: String?
            @Flag(name: .customLong("new-person"), help: "A different person from a removed driver of the same name.")
            var newPerson = false
            @OptionGroup var store: StoreOptions

            func validate() throws {
                for tag in tags { _ = try Self.tag(tag) }
                for spec in beacons { _ = try Self.beacon(spec) }
            }

            static func tag(_ text: String) throws -> TagIdentity {
                do { return try TagIdentity(provisioningText: text) } catch { throw ValidationError(error.description) }
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
                let db = try store.open(creating: true)
                do {
                    let (id, restored) = try db.addOrRestoreDriver(
                        name: name, contact: contact, tags: tagIdentities, beacons: beaconIdentities, newPerson: newPerson)
                    if let removed = restored {
                        let trips = try db.sessions(driver: removed.id).count
                        print(
                            "brought back driver \(removed.id.rawValue) \(removed.name) (removed earlier) with \(tagIdentities.count) tag(s) and "
                                + "\(beaconIdentities.count) beacon(s); their \(trips) past trip(s) and bills are theirs as before "
                                + "(--new-person: someone else of that name)")
                    } else {
                        print("added driver \(id.rawValue) \(name) with \(tagIdentities.count) tag(s) and \(beaconIdentities.count) beacon(s)")
                    }
                } catch {
                    throw UserFacingError("\(error)")
                }
                store.control.tellService()
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List drivers with their tags and beacons.")
            @Flag(help: "Also list removed drivers (their trips keep their name).")
            var removed = false
            @OptionGroup var store: StoreOptions

            func run() throws {
                let db = try store.openReadOnly()
                for driver in try db.drivers(includingRemoved: removed) {
                    print("\(driver.id.rawValue)\t\(TerminalText.escaped(driver.name))\(driver.removed ? " (removed)" : "")")
                    if let contact = driver.contact { print("\tcontact \(TerminalText.escaped(contact))") }
                    for tag in driver.tags { print("\ttag \(tag)") }
                    for beacon in driver.beacons { print("\tbeacon \(beacon.spec)") }
                }
            }
        }

        struct Rename: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Rename a driver: their trips and bills, past ones included, carry the new name.")
            @Argument(help: "The driver's name now.") var name: String
            @Argument(help: "The new name (1 to 64 characters).", transform: CheckedArgument.name) var newName: String
            @OptionGroup var store: StoreOptions

            func run() throws {
                let db = try store.open()
                do {
                    let record = try db.renameDriver(named: name, to: newName)
                    let trips = try db.sessions(driver: record.id).count
                    print("renamed driver \(record.id.rawValue) \(record.name) to \(newName), with their \(trips) past trip(s) and bills")
                } catch {
                    throw UserFacingError("\(error)")
                }
                store.control.tellService()
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove a driver: their tags and beacons are freed; their past trips and splits stay.")
            @Argument(help: "The driver's name.") var name: String
            @OptionGroup var store: StoreOptions

            func run() throws {
                let db = try store.open()
                do {
                    let record = try db.removeDriver(named: name)
                    let trips = try db.sessions(driver: record.id).count
                    print("removed driver \(record.id.rawValue) \(record.name): \(record.tags.count) tag(s) and \(record.beacons.count) beacon(s) freed; \(trips) past trip(s) and their splits keep the name \(record.name) (`provision driver add \(record.name)` brings them back)")
                } catch {
                    throw UserFacingError("\(error)")
                }
                store.control.tellService()
            }
        }
    }

    struct LearnTag: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "learn-tag", abstract: "Bind the next tag tapped on the dongle to a driver (needs the running service).")
        @Argument(help: "The driver's name.") var driver: String
        @Option(name: .customLong("timeout-s"), help: "How long to wait for the tap, seconds (1 to 255).") var timeoutSeconds = 30
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard (1...255).contains(timeoutSeconds) else { throw ValidationError("--timeout-s must be 1 to 255") }
        }

        func run() throws {
            let name = try requireDriver(driver, store: store)
            try store.control.requireService(for: Self.configuration.commandName!)
            prompt("Tap the tag for \(name) on the dongle within \(timeoutSeconds) s (the dongle beeps the provisioning pattern)…")
            print(try store.control.askLong("learn-tag \(timeoutSeconds) \(name)", seconds: timeoutSeconds, what: "learn-tag").okText)
        }
    }

    struct LearnBeacon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "learn-beacon",
            abstract: "Bind the beacon held next to the dongle to a driver (needs the running service).",
            discussion: """
                Hold the beacon against the dongle for the hold time. It is bound when it is the only one
                near (smoothed RSSI -65 dBm or stronger, from the service's presence table): another beacon
                within 8 dB of it counts as equally close and the command refuses.
                """)
        @Argument(help: "The driver's name.") var driver: String
        @Option(name: .customLong("hold-s"), help: "How long to hold the beacon next to the dongle, seconds.") var holdSeconds = 5
        @Option(name: .customLong("timeout-s"), help: "How long to wait for a beacon, seconds (1 to 255).") var timeoutSeconds = 30
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard (1...255).contains(timeoutSeconds) else { throw ValidationError("--timeout-s must be 1 to 255") }
            guard (1...60).contains(holdSeconds), holdSeconds <= timeoutSeconds else {
                throw ValidationError("--hold-s must be 1 to 60 and at most --timeout-s")
            }
        }

        func run() throws {
            let name = try requireDriver(driver, store: store)
            try store.control.requireService(for: Self.configuration.commandName!)
            prompt("Hold \(name)'s beacon next to the dongle for \(holdSeconds) s, and keep other beacons away (up to \(timeoutSeconds) s)…")
            print(try store.control.askLong("learn-beacon \(timeoutSeconds) \(holdSeconds) \(name)", seconds: timeoutSeconds, what: "learn-beacon").okText)
        }
    }

    struct WriteTag: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "write-tag",
            abstract: "Write a driver's fairfuel://driver/<uuid> record to the next blank tag, read it back and bind it (needs the running service).")
        @Argument(help: "The driver's name.") var driver: String
        @Option(name: .customLong("timeout-s"), help: "How long to wait for a blank tag, seconds (1 to 255).") var timeoutSeconds = 30
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard (1...255).contains(timeoutSeconds) else { throw ValidationError("--timeout-s must be 1 to 255") }
        }

        func run() throws {
            let name = try requireDriver(driver, store: store)
            try store.control.requireService(for: Self.configuration.commandName!)
            prompt("Present a blank tag for \(name) to the dongle within \(timeoutSeconds) s, and hold it there until the beep…")
            print(try store.control.askLong("write-tag \(timeoutSeconds) \(name)", seconds: timeoutSeconds + 5, what: "write-tag").okText)
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the drivers, their tags and beacons, and the vehicle to a bundle file (TOML).")
        @Argument(help: "The bundle file to write ('-' for standard output).") var file: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            let bundle: ProvisioningBundle
            do { bundle = try ProvisioningBundle(store: try store.openReadOnly()) } catch let error as UserFacingError { throw error } catch { throw UserFacingError("\(error)") }
            let text = bundle.render()
            if file == "-" {
                print(text, terminator: "")
                return
            }
            try writeTextFile(file, text)
            print("exported \(bundle.drivers.count) driver(s) and the vehicle to \(file)")
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a bundle: add drivers, bind tags and beacons, set the vehicle; says what changed.",
            discussion: "Nothing is removed, and a tag or beacon bound to another driver here stays theirs (a conflict). Importing twice changes nothing.")
        @Argument(help: "The bundle file.") var file: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            let bundle: ProvisioningBundle
            do {
                bundle = try ProvisioningBundle.parse(try readTextFile(file))
            } catch let error as ProvisioningTextError {
                throw UserFacingError("\(file): \(error)")
            }
            // A zone this machine cannot read would show UTC with a warning on every report: refuse it here.
            if let zone = bundle.vehicle?.timeZone, !zone.isEmpty {
                do { _ = try TimeZoneDatabase.load(zone) } catch { throw UserFacingError("\(file): vehicle: time_zone: \(error)") }
            }
            let report: ProvisioningImportReport
            do { report = try bundle.apply(to: try store.open(creating: true)) } catch let error as UserFacingError { throw error } catch { throw UserFacingError("\(error)") }
            print(report.text, terminator: "")
            if report.changed { store.control.tellService() }
        }
    }
}

/// The driver's name as stored, or a clear error naming the drivers there are.
func requireDriver(_ name: String, store: StoreOptions) throws -> String {
    do {
        return try store.openReadOnly().requireDriver(named: name).name
    } catch let error as UserFacingError {
        throw error
    } catch {
        throw UserFacingError("\(error)")
    }
}

/// A prompt the technician sees before the command waits.
func prompt(_ text: String) {
    print(text)
    try? StandardStreams.flush()
}

extension String {
    /// An `ok: ...` answer without its prefix and newline.
    var okText: String {
        var text = trimmingTrailingNewline
        if text.hasPrefix("ok: ") { text.removeFirst(4) }
        return text
    }
}

/// A whole (small) text file, without Foundation.
func readTextFile(_ path: String) throws -> String {
    let limit = 4 << 20
    // One byte past the limit tells a file of exactly 4 MB from a larger one.
    switch TextFileReader.readAll(path: path, maximumBytes: limit + 1) {
    case let .success(bytes):
        if bytes.count > limit { throw UserFacingError("\(path) is larger than 4 MB: not a provisioning bundle") }
        return String(decoding: bytes, as: UTF8.self)
    case let .failure(error):
        throw UserFacingError(error.description)
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so a failure never leaves half a file.
func writeTextFile(_ path: String, _ text: String) throws {
    let temporary = path + ".tmp"
    do {
        // Owner only (`writeWhole`): a bundle names the family's tags and beacons.
        try FileOperations.writeWhole(temporary, bytes: Array(text.utf8))
        try FileOperations.rename(temporary, to: path)
    } catch {
        FileOperations.remove(temporary)
        throw UserFacingError("cannot write \(path): \(error.reason)")
    }
}
