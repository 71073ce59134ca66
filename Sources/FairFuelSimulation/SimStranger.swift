import FairFuelParsers

/// Kinds of other people's advertisers.
public enum SimStrangerKind: String, Sendable, CaseIterable {
    /// A phone with a resolvable private address that rotates every 15 minutes.
    case phone
    /// An Android phone (Fast Pair service data), resolvable private address.
    case android
    /// A smart watch, resolvable private address.
    case watch
    /// A lost-item tag (offline-finding manufacturer data), rotating static random address.
    case tag
    /// Someone else's iBeacon (another proximity UUID).
    case ibeacon
    /// Someone else's Eddystone-UID beacon.
    case eddystone
    /// A named sensor answering scans (SCAN_RSP).
    case sensor
}

/// A stranger's advertiser: near a place while the car is parked there, or for a while.
public struct SimStranger: Sendable, Equatable {
    public var name: String
    public var kind: SimStrangerKind
    /// Resident strangers: the place they live at.
    public var place: String?
    public var rangeMeters: Double
    /// An explicit identity (e.g. a neighbour's iBeacon with the family's UUID).
    public var identity: BeaconIdentity?
    public var line: Int

    public init(name: String, kind: SimStrangerKind, place: String?, rangeMeters: Double, identity: BeaconIdentity? = nil, line: Int) {
        self.name = name
        self.kind = kind
        self.place = place
        self.rangeMeters = rangeMeters
        self.identity = identity
        self.line = line
    }
}
