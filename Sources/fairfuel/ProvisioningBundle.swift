import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelStore

/// Drivers (with tags and beacons) and the vehicle profile as a TOML file a person can read,
/// to set up several family cars the same way. The refuel-calibrated fuel scale stays with
/// each car and is not in the bundle.
public struct ProvisioningBundle: Sendable, Equatable {
    public static let format = "fairfuel-provisioning-1"

    public struct Driver: Sendable, Equatable {
        public var name: String
        public var contact: String?
        public var uuid: UUID128?
        public var tags: [TagIdentity]
        public var beacons: [BeaconIdentity]
        /// The line of the driver's `[[driver]]` header in the bundle read; 0 for one made in code.
        public var line = 0

        public init(name: String, contact: String? = nil, uuid: UUID128? = nil, tags: [TagIdentity] = [], beacons: [BeaconIdentity] = []) {
            self.name = name
            self.contact = contact
            self.uuid = uuid
            self.tags = tags
            self.beacons = beacons
        }

        /// Equal in what they provision; where they were written does not count.
        public static func == (a: Driver, b: Driver) -> Bool {
            a.name == b.name && a.contact == b.contact && a.uuid == b.uuid && a.tags == b.tags && a.beacons == b.beacons
        }
    }

    public var vehicle: VehicleProfile?
    public var drivers: [Driver]

    public init(vehicle: VehicleProfile?, drivers: [Driver]) {
        self.vehicle = vehicle
        self.drivers = drivers
    }

    /// The store's current provisioning.
    public init(store: TripStore) throws(StoreError) {
        vehicle = try store.vehicle()
        drivers = try store.drivers().map { Driver(name: $0.name, contact: $0.contact, uuid: $0.uuid, tags: $0.tags, beacons: $0.beacons) }
    }

    /// The bundle as TOML, with a header saying what it is.
    public func render() -> String {
        var root = TOMLTable()
        root.set("format", .string(Self.format))
        if let vehicle {
            var table = TOMLTable()
            table.set("name", .string(vehicle.name))
            table.set("l_per_100km", .float(vehicle.ratedLitersPer100km))
            table.set("mass_kg", .float(vehicle.massKilograms))
            table.set("idle_l_per_h", .float(vehicle.idleLitersPerHour))
            table.set("fuel", .string(vehicle.fuelType))
            table.set("tank_l", .float(vehicle.tankLiters))
            table.set("currency", .string(vehicle.currency))
            table.set("units", .string(vehicle.units))
            table.set("untracked", .string(vehicle.untrackedPolicy.rawValue))
            if !vehicle.timeZone.isEmpty { table.set("time_zone", .string(vehicle.timeZone)) }
            root.set("vehicle", .table(table))
        }
        root.set("driver", .tableArray(drivers.map { driver in
            var table = TOMLTable()
            table.set("name", .string(driver.name))
            if let contact = driver.contact { table.set("contact", .string(contact)) }
            if let uuid = driver.uuid { table.set("uuid", .string(uuid.description)) }
            table.set("tags", .array(driver.tags.map { .string($0.provisioningText) }))
            table.set("beacons", .array(driver.beacons.map { .string($0.spec) }))
            return table
        }))
        return """
            # FairFuel provisioning bundle: drivers with their tags and beacons, and the vehicle.
            # Import it on another dongle with: fairfuel provision import FILE
            # Tags: a UID in hex or fairfuel://driver/<uuid>; beacons: ibeacon:, eddystone:, mac: specs.

            """ + TOMLWriter.render(root)
    }

    /// Reads a bundle; every problem names the key at fault and its line (the table's header line
    /// for a key that is missing).
    public static func parse(_ text: String) throws(ProvisioningTextError) -> ProvisioningBundle {
        let root: TOMLTable
        do { root = try TOMLParser.parse(text) } catch { throw ProvisioningTextError("not a provisioning bundle: \(error)") }
        guard let formatValue = root["format"] else {
            throw ProvisioningTextError("not a provisioning bundle: `format = \"\(format)\"` is missing")
        }
        guard formatValue.stringValue == format else {
            throw ProvisioningTextError(
                "line \(root.line(of: "format") ?? 0): format is \(shown(formatValue)), not \"\(format)\" (a bundle this build does not read)")
        }
        for key in root.keys where !["format", "vehicle", "driver"].contains(key) {
            throw ProvisioningTextError("line \(root.line(of: key) ?? 0): unknown key '\(key)' (format, vehicle, driver)")
        }
        var bundle = ProvisioningBundle(vehicle: nil, drivers: [])
        if let value = root["vehicle"] {
            guard let table = value.tableValue else {
                throw ProvisioningTextError("line \(root.line(of: "vehicle") ?? 0): 'vehicle' must be a table ([vehicle])")
            }
            bundle.vehicle = try vehicle(table)
        }
        if let value = root["driver"] {
            guard let tables = value.tableArrayValue else {
                throw ProvisioningTextError("line \(root.line(of: "driver") ?? 0): 'driver' must be [[driver]] tables")
            }
            var seen = Set<String>()
            // Each tag and beacon belongs to one driver: refused here, before the store is touched,
            // rather than imported for one driver and left out (or a raw constraint error) for the other.
            var tagOwners: [TagIdentity: (name: String, line: Int)] = [:]
            var beaconOwners: [BeaconIdentity: (name: String, line: Int)] = [:]
            for table in tables {
                var driver = try driver(table)
                driver.line = table.line
                guard seen.insert(driver.name.lowercased()).inserted else {
                    throw ProvisioningTextError("line \(table.line(of: "name") ?? table.line): driver '\(driver.name)' is in the bundle twice")
                }
                try claim(driver.tags, as: "tag", text: \.provisioningText, by: driver, line: table.line(of: "tags") ?? table.line, in: &tagOwners)
                try claim(driver.beacons, as: "beacon", text: \.spec, by: driver, line: table.line(of: "beacons") ?? table.line, in: &beaconOwners)
                bundle.drivers.append(driver)
            }
        }
        return bundle
    }

    /// Records `driver` as the owner of each of `identities` (listed at `line`); one owned already,
    /// by another driver or earlier in the same list, is refused naming both lines.
    private static func claim<Identity: Hashable>(
        _ identities: [Identity], as kind: String, text: (Identity) -> String, by driver: Driver, line: Int,
        in owners: inout [Identity: (name: String, line: Int)]
    ) throws(ProvisioningTextError) {
        for identity in identities {
            guard let owner = owners.updateValue((driver.name, line), forKey: identity) else { continue }
            throw ProvisioningTextError("line \(line): driver \(driver.name): \(kind) \(text(identity)) "
                + (owner.name == driver.name ? "is listed twice" : "is given to \(owner.name) too (line \(owner.line))")
                + "; a \(kind) belongs to one driver")
        }
    }

    /// A value as a message shows it: a string quoted, anything else by its kind.
    private static func shown(_ value: TOMLValue) -> String {
        value.stringValue.map { "'\($0)'" } ?? ("aeiou".contains(value.typeName.first ?? "x") ? "an " : "a ") + value.typeName
    }

    private static func driver(_ table: TOMLTable) throws(ProvisioningTextError) -> Driver {
        for key in table.keys where !["name", "contact", "uuid", "tags", "beacons"].contains(key) {
            throw ProvisioningTextError("line \(table.line(of: key) ?? table.line): unknown driver key '\(key)' (name, contact, uuid, tags, beacons)")
        }
        /// `line N: driver NAME: message`, at `key`'s line (the [[driver]] header's when it is missing).
        func problem(_ key: String, _ name: String?, _ message: String) -> ProvisioningTextError {
            ProvisioningTextError("line \(table.line(of: key) ?? table.line): " + (name.map { "driver \($0): " } ?? "") + message)
        }
        guard let nameValue = table["name"] else { throw problem("name", nil, "a driver needs a name") }
        guard let name = nameValue.stringValue, !name.isEmpty else { throw problem("name", nil, "a driver's 'name' must be a non-empty string") }
        // A bundle is typed input too: the CLI's rules for names (ArgumentValidation).
        do { _ = try ArgumentValidation.name(name, argument: "name") } catch { throw problem("name", nil, "driver \(error)") }
        var driver = Driver(name: name)
        if let value = table["contact"] {
            guard let contact = value.stringValue else { throw problem("contact", name, "'contact' must be a string") }
            driver.contact = contact
        }
        if let value = table["uuid"] {
            guard let text = value.stringValue, let uuid = UUID128(text) else {
                throw problem("uuid", name, "uuid \(shown(value)) is not 8-4-4-4-12 hex")
            }
            driver.uuid = uuid
        }
        /// The strings of a list key; a bare string or anything else is refused rather than read as none.
        func strings(_ key: String) throws(ProvisioningTextError) -> [String] {
            guard let value = table[key] else { return [] }
            guard let array = value.arrayValue else { throw problem(key, name, "'\(key)' must be a list of strings, e.g. \(key) = [\"...\"]") }
            var texts: [String] = []
            for element in array {
                guard let text = element.stringValue else { throw problem(key, name, "'\(key)' must be a list of strings, not \(shown(element))") }
                texts.append(text)
            }
            return texts
        }
        for text in try strings("tags") {
            do { driver.tags.append(try TagIdentity(provisioningText: text)) } catch { throw problem("tags", name, "\(error)") }
        }
        for text in try strings("beacons") {
            do { driver.beacons.append(try BeaconIdentity(spec: text)) } catch { throw problem("beacons", name, "beacon '\(text)': \(error)") }
        }
        return driver
    }

    /// The keys of `[vehicle]`; `engine_l` (the displacement) instead of `idle_l_per_h` sets the idle rate.
    static let vehicleKeys = [
        "name", "l_per_100km", "mass_kg", "idle_l_per_h", "engine_l", "fuel", "tank_l", "currency", "units", "untracked",
        "time_zone",
    ]

    private static func vehicle(_ table: TOMLTable) throws(ProvisioningTextError) -> VehicleProfile {
        /// `vehicle, line N: message`, at `key`'s line (the [vehicle] header's when it is missing).
        func problem(_ key: String, _ message: String) -> ProvisioningTextError {
            ProvisioningTextError("vehicle, line \(table.line(of: key) ?? table.line): \(message)")
        }
        func number(_ key: String) throws(ProvisioningTextError) -> Double {
            guard let value = table[key] else { throw problem(key, "'\(key)' is missing") }
            if let double = value.floatValue { return double }
            if let integer = value.integerValue { return Double(integer) }
            throw problem(key, "'\(key)' must be a number")
        }
        func text(_ key: String) throws(ProvisioningTextError) -> String {
            guard let value = table[key] else { throw problem(key, "'\(key)' is missing") }
            guard let text = value.stringValue else { throw problem(key, "'\(key)' must be a string") }
            return text
        }
        for key in table.keys where !vehicleKeys.contains(key) {
            throw problem(key, "unknown key '\(key)' (\(vehicleKeys.joined(separator: ", ")))")
        }
        let currency = try text("currency").uppercased()
        let untracked = try text("untracked")
        guard let policy = UntrackedPolicy(rawValue: untracked) else { throw problem("untracked", "untracked must be owner or pro_rata") }
        // A technician writing a bundle for a car has its engine size from the registration
        // document, not an idle rate: either may be given, as `vehicle set` takes them.
        let engineLiters = table["engine_l"] == nil ? nil : try number("engine_l")
        if engineLiters != nil, table["idle_l_per_h"] != nil {
            throw problem("idle_l_per_h", "give engine_l or idle_l_per_h, not both (engine_l sets the idle rate)")
        }
        if let engineLiters, !VehicleProfile.engineLitersRange.contains(engineLiters) {
            throw problem("engine_l", "engine_l must be 0.5 to 8")
        }
        var profile = VehicleProfile(
            name: try text("name"), ratedLitersPer100km: try number("l_per_100km"), massKilograms: try number("mass_kg"),
            idleLitersPerHour: engineLiters == nil ? try number("idle_l_per_h") : 0, fuelType: try text("fuel"),
            tankLiters: try number("tank_l"), currency: currency,
            currencyMinorDigits: VehicleProfile.minorDigits(ofCurrency: currency) ?? -1,
            units: try text("units"), untrackedPolicy: policy, fuelScale: 1)
        if let engineLiters { profile.idleLitersPerHour = profile.idleLitersPerHour(engineLiters: engineLiters) }
        // Optional: a bundle written before time zones existed has none, and an import then keeps the
        // car's own (an empty name here says so). The name is checked against the zone files where it is imported.
        profile.timeZone = ""
        if table["time_zone"] != nil {
            profile.timeZone = try text("time_zone")
            guard !profile.timeZone.isEmpty, profile.timeZone.utf8.count <= 64,
                profile.timeZone.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 })
            else { throw problem("time_zone", "time_zone must be a name as in /usr/share/zoneinfo, e.g. Europe/Berlin") }
        }
        // The bundle's key, not the CLI option the same rule goes by (an idle rate made from engine_l is engine_l's).
        if let first = profile.problems.first {
            let key = first.bundleKey == "idle_l_per_h" && engineLiters != nil ? "engine_l" : first.bundleKey
            throw problem(key, "\(key) \(first.rule)")
        }
        return profile
    }
}
