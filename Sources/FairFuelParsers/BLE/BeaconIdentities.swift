import FairFuelCore

/// The identities one advertisement offers, in a fixed-capacity inline list (no allocation).
///
/// Order: beacon frames as they appear in the data (iBeacon, AltBeacon in manufacturer data;
/// Eddystone-UID in service data), then the advertiser's address when it is public or static
/// random. Duplicates are listed once; identities beyond `capacity` are counted in `droppedCount`.
public struct BeaconIdentities: RandomAccessCollection, Equatable, Sendable {
    public static let capacity = 4

    private var slot0: BeaconIdentity?
    private var slot1: BeaconIdentity?
    private var slot2: BeaconIdentity?
    private var slot3: BeaconIdentity?
    public private(set) var count = 0
    /// Identities found beyond `capacity`.
    public private(set) var droppedCount = 0
    /// What the advertiser's address is; a private one is not listed.
    public let addressKind: BLEAddressKind

    /// Extracts the identities of an advertisement from `address`, its type and its AD bytes.
    public init(address: BLEAddress, addressType: BLEAddressType, data: ArraySlice<UInt8>) {
        addressKind = BLEAddressKind(address: address, type: addressType)
        for structure in ADStructures(data) {
            if structure.type == .manufacturerData {
                guard let manufacturerData = ManufacturerData(structure) else { continue }
                if let beacon = IBeacon(manufacturerData) {
                    append(beacon.identity)
                } else if let beacon = AltBeacon(manufacturerData) {
                    append(beacon.identity)
                }
            } else if structure.type.serviceDataUUIDWidth != nil {
                guard let serviceData = ServiceData(structure),
                    case .uid(let uid)? = EddystoneFrame(serviceData)
                else { continue }
                append(uid.identity)
            }
        }
        if addressKind.isStableIdentity { append(.address(address)) }
    }

    private mutating func append(_ identity: BeaconIdentity) {
        if contains(identity) { return }
        switch count {
        case 0: slot0 = identity
        case 1: slot1 = identity
        case 2: slot2 = identity
        case 3: slot3 = identity
        default:
            droppedCount += 1
            return
        }
        count += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> BeaconIdentity {
        precondition(position >= 0 && position < count, "index out of range")
        switch position {
        case 0: return slot0!
        case 1: return slot1!
        case 2: return slot2!
        default: return slot3!
        }
    }
}
