import FairFuelCore
import FairFuelParsers

/// Who is provisioned: drivers with their tags and beacons, for lookups on every event.
///
/// Lookups are linear scans over small arrays (16 drivers with a few tags and
/// beacons each): no hashing, no allocation.
public struct DriverDirectory: Sendable, Equatable {
    public struct Driver: Sendable, Equatable {
        public var id: DriverID
        public var name: String
        public init(id: DriverID, name: String) {
            self.id = id
            self.name = name
        }
    }

    public private(set) var drivers: [Driver] = []
    public private(set) var tags: [(identity: TagIdentity, driver: DriverID)] = []
    public private(set) var beacons: [(identity: BeaconIdentity, driver: DriverID)] = []

    public init() {}

    public init(drivers: [Driver], tags: [(TagIdentity, DriverID)], beacons: [(BeaconIdentity, DriverID)]) {
        self.drivers = drivers
        self.tags = tags.map { (identity: $0.0, driver: $0.1) }
        self.beacons = beacons.map { (identity: $0.0, driver: $0.1) }
    }

    public mutating func addDriver(_ driver: Driver) { drivers.append(driver) }
    public mutating func bind(tag: TagIdentity, to driver: DriverID) { tags.append((tag, driver)) }
    public mutating func bind(beacon: BeaconIdentity, to driver: DriverID) { beacons.append((beacon, driver)) }

    /// The driver a tag read belongs to: its driver URI first, then its UID.
    public func driver(for read: NFCTagIdentities) -> DriverID? {
        for identity in read {
            for binding in tags where binding.identity == identity { return binding.driver }
        }
        return nil
    }

    public func driver(for beacon: BeaconIdentity) -> DriverID? {
        for binding in beacons where binding.identity == beacon { return binding.driver }
        return nil
    }

    public func hasBeacon(_ driver: DriverID) -> Bool {
        beacons.contains { $0.driver == driver }
    }

    public func name(of driver: DriverID) -> String? {
        drivers.first { $0.id == driver }?.name
    }

    public static func == (a: DriverDirectory, b: DriverDirectory) -> Bool {
        a.drivers == b.drivers
            && a.tags.elementsEqual(b.tags, by: { $0.identity == $1.identity && $0.driver == $1.driver })
            && a.beacons.elementsEqual(b.beacons, by: { $0.identity == $1.identity && $0.driver == $1.driver })
    }
}
