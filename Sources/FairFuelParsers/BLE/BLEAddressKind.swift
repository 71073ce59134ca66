import FairFuelCore

/// What an advertiser's address is, which tells whether it can identify a device over time.
///
/// Random addresses are told apart by their two top bits (Core Specification, Vol 6, Part B,
/// 1.3): 11 static, 01 resolvable private, 00 non-resolvable private, 10 reserved. Private
/// addresses rotate (typically every 15 minutes), so only public and static ones are identities.
public enum BLEAddressKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case `public`
    case staticRandom
    case resolvablePrivate
    case nonResolvablePrivate
    /// Top bits 10 (reserved), or a static address whose 46 random bits are all 0 or all 1.
    case invalidRandom

    public init(address: BLEAddress, type: BLEAddressType) {
        guard type == .random else {
            self = .public
            return
        }
        switch address.topBits {
        case 0b11:
            let randomPart = address.rawValue & 0x3FFF_FFFF_FFFF
            self = randomPart == 0 || randomPart == 0x3FFF_FFFF_FFFF ? .invalidRandom : .staticRandom
        case 0b01: self = .resolvablePrivate
        case 0b00: self = .nonResolvablePrivate
        default: self = .invalidRandom
        }
    }

    /// Whether the address stays the same across advertisements, so that it can name a beacon.
    public var isStableIdentity: Bool { self == .public || self == .staticRandom }

    public var description: String {
        switch self {
        case .public: "public"
        case .staticRandom: "static random"
        case .resolvablePrivate: "resolvable private"
        case .nonResolvablePrivate: "non-resolvable private"
        case .invalidRandom: "invalid random"
        }
    }
}
