import FairFuelCore

/// What a driver's beacon is known by; inline value with no heap storage.
///
/// `description` is the provisioning spec (see `init(spec:)`).
public enum BeaconIdentity: Hashable, Sendable, CustomStringConvertible {
    case iBeacon(proximityUUID: UUID128, major: UInt16, minor: UInt16)
    case eddystoneUID(namespace: EddystoneNamespace, instance: EddystoneInstance)
    case altBeacon(AltBeaconID)
    /// A public or static random device address (never a private, rotating one).
    case address(BLEAddress)
}
