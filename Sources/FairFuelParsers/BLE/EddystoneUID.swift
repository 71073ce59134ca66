/// An Eddystone-UID frame (frame type 0x00): a namespace and an instance.
public struct EddystoneUID: Hashable, Sendable {
    /// Frame type, TX power, namespace 10, instance 6; two reserved bytes may follow.
    public static let minimumByteCount = 18

    /// The beacon's calibrated TX power in dBm at 0 m.
    public var txPowerAt0mDBm: Int8
    public var namespace: EddystoneNamespace
    public var instance: EddystoneInstance

    public init(txPowerAt0mDBm: Int8, namespace: EddystoneNamespace, instance: EddystoneInstance) {
        self.txPowerAt0mDBm = txPowerAt0mDBm
        self.namespace = namespace
        self.instance = instance
    }

    /// Decodes the Eddystone service data `frame` (frame type byte first); nil when not a UID frame.
    ///
    /// The two reserved bytes at the end are optional, as many beacons leave them out.
    public init?(frame: ArraySlice<UInt8>) {
        guard frame.count >= EddystoneUID.minimumByteCount, frame[frame.startIndex] == 0x00 else {
            return nil
        }
        let start = frame.startIndex
        txPowerAt0mDBm = BeaconBytes.int8(frame, 1)
        namespace = EddystoneNamespace(bytes: frame[(start + 2)..<(start + 12)])
        instance = EddystoneInstance(bytes: frame[(start + 12)..<(start + 18)])
    }

    /// The identity a driver's beacon is provisioned with (namespace and instance).
    public var identity: BeaconIdentity { .eddystoneUID(namespace: namespace, instance: instance) }
}
