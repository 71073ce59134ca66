import FairFuelParsers

/// A driver: name, NFC tag (UID and/or driver URI record) and beacon.
public struct SimDriver: Sendable, Equatable {
    public var name: String
    public var tag: SimTagSpec?
    /// `fairfuel://driver/<uuid>`: written on the tag as an NDEF URI record.
    public var driverURI: DriverURI?
    /// nil: no beacon.
    public var beacon: BeaconIdentity?
    /// Advertising interval of the beacon.
    public var beaconIntervalMs: Int64 = 1000
    /// RSSI at 1 m (the beacon's measured power).
    public var beaconPowerDBm = -59.0
    /// Line of the `driver` declaration.
    public var line: Int

    public init(name: String, line: Int) {
        self.name = name
        self.line = line
    }
}
