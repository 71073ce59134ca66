import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelParsers

/// The family: three drivers, two of them with fobs, each with their own way of driving.
///
/// Ana drives in town, calmly, with a fob advertising every 700 ms; Ben drives the
/// motorway, normally, with a fob every second and a tag that carries his driver URI;
/// Cleo drives hard and has no fob.
public struct ScenarioFamily: Sendable {
    public static let names = ["Ana", "Ben", "Cleo"]
    public static let fobUUID = UUID128("fda50693-a4e2-4fb1-afcf-c6eb07647825")!

    public var drivers: [ScenarioDriver]

    public init(drivers: [ScenarioDriver]) { self.drivers = drivers }

    public static let standard = ScenarioFamily(drivers: [
        ScenarioDriver(
            person: .ana, name: names[0], tagUID: [0x04, 0x5A, 0x1E, 0x72, 0x9B, 0x61, 0x80], tagNDEF: [], driverURI: nil,
            fob: Fob(address: BLEAddress(rawValue: 0xD3_41_7A_0C_22_15), proximityUUID: fobUUID, major: 1, minor: 101, intervalMs: 700),
            style: .calm),
        ScenarioDriver(
            person: .ben, name: names[1], tagUID: [0x04, 0x11, 0x8C, 0x2A, 0x47, 0x70, 0x81],
            tagNDEF: DriverURI(driverID: UUID128("7c0e3a52-18d4-4b6f-9a21-5be0c3d4e6f7")!).ndefMessage,
            driverURI: UUID128("7c0e3a52-18d4-4b6f-9a21-5be0c3d4e6f7")!,
            fob: Fob(address: BLEAddress(rawValue: 0xE8_09_55_3B_91_6C), proximityUUID: fobUUID, major: 1, minor: 102, intervalMs: 1_000),
            style: .normal),
        ScenarioDriver(
            person: .cleo, name: names[2], tagUID: [0x04, 0x73, 0x02, 0xD9, 0x5E, 0x28, 0x80], tagNDEF: [], driverURI: nil,
            fob: nil, style: .aggressive),
    ])

    public subscript(person: Person) -> ScenarioDriver {
        get { drivers[person.rawValue] }
        set { drivers[person.rawValue] = newValue }
    }

    /// The id a fresh store gives `person` when the drivers are added in order.
    public static func driverID(_ person: Person) -> DriverID { DriverID(Int64(person.rawValue + 1)) }

    /// The person a driver id stands for.
    public static func person(_ driver: DriverID?) -> Person? {
        guard let driver else { return nil }
        return Person(rawValue: Int(driver.rawValue) - 1)
    }

    /// The provisioning as the domain looks it up (ids as `driverID`).
    public var directory: DriverDirectory {
        var directory = DriverDirectory()
        for driver in drivers {
            let id = Self.driverID(driver.person)
            directory.addDriver(.init(id: id, name: driver.name))
            directory.bind(tag: driver.tagIdentity, to: id)
            if let fob = driver.fob { directory.bind(beacon: fob.identity, to: id) }
        }
        return directory
    }

    /// A tag nobody is provisioned with (a visitor's transit card).
    public static let unknownTagUID: [UInt8] = [0x04, 0xEE, 0x10, 0x42, 0x7F, 0x3A, 0x80]
}
