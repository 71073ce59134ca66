import FairFuelCore

extension BeaconIdentity {
    /// Parses a provisioning spec (scheme in any case, hex in any case):
    ///
    ///     ibeacon:<uuid 8-4-4-4-12>:<major 0...65535>:<minor 0...65535>
    ///     eddystone:<namespace, 20 hex>:<instance, 12 hex>
    ///     altbeacon:<id, 40 hex>
    ///     mac:AA:BB:CC:DD:EE:FF           a static random address (top bits 11)
    ///     mac:AA:BB:CC:DD:EE:FF/public    a public (IEEE) address, whatever its top bits
    ///
    /// A plain `mac:` address whose top bits mark it as private (01 resolvable, 00
    /// non-resolvable) or reserved (10) is refused with `unstableAddress`, because public
    /// addresses cannot be told from random ones by their bits alone.
    public init(spec: String) throws(BeaconSpecError) {
        guard !spec.isEmpty else { throw .empty }
        guard let colon = spec.firstIndex(of: ":") else { throw .unknownScheme(spec) }
        let scheme = spec[..<colon].lowercased()
        let rest = spec[spec.index(after: colon)...]
        switch scheme {
        case "ibeacon":
            let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 3 else {
                throw .wrongFieldCount(scheme: scheme, expected: 3, actual: fields.count)
            }
            guard let uuid = UUID128(fields[0]) else { throw .badUUID(String(fields[0])) }
            let major = try BeaconIdentity.parseUInt16(fields[1], field: "major")
            let minor = try BeaconIdentity.parseUInt16(fields[2], field: "minor")
            self = .iBeacon(proximityUUID: uuid, major: major, minor: minor)
        case "eddystone":
            let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                throw .wrongFieldCount(scheme: scheme, expected: 2, actual: fields.count)
            }
            let namespace = try BeaconIdentity.parseHex(fields[0], field: "namespace", digits: 20)
            let instance = try BeaconIdentity.parseHex(fields[1], field: "instance", digits: 12)
            self = .eddystoneUID(
                namespace: EddystoneNamespace(bytes: namespace[...]),
                instance: EddystoneInstance(bytes: instance[...]))
        case "altbeacon":
            let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 1 else {
                throw .wrongFieldCount(scheme: scheme, expected: 1, actual: fields.count)
            }
            let id = try BeaconIdentity.parseHex(fields[0], field: "AltBeacon id", digits: 40)
            self = .altBeacon(AltBeaconID(bytes: id[...]))
        case "mac":
            var addressText = rest
            var isPublic = false
            if let slash = rest.firstIndex(of: "/") {
                guard rest[rest.index(after: slash)...].lowercased() == "public" else {
                    throw .badAddress(String(rest))
                }
                addressText = rest[..<slash]
                isPublic = true
            }
            guard let address = BLEAddress(addressText) else { throw .badAddress(String(addressText)) }
            if !isPublic {
                let kind = BLEAddressKind(address: address, type: .random)
                guard kind.isStableIdentity else { throw .unstableAddress(address, kind: kind) }
            }
            self = .address(address)
        default:
            throw .unknownScheme(String(spec[..<colon]))
        }
    }

    /// The provisioning spec, in the form `init(spec:)` reads (lower-case hex, upper-case address).
    ///
    /// An address whose top bits are not 11 can only have come from a public address, so it
    /// prints with `/public`.
    public var spec: String {
        switch self {
        case .iBeacon(let uuid, let major, let minor):
            return "ibeacon:\(uuid):\(major):\(minor)"
        case .eddystoneUID(let namespace, let instance):
            return "eddystone:\(namespace):\(instance)"
        case .altBeacon(let id):
            return "altbeacon:\(id)"
        case .address(let address):
            return address.topBits == 0b11 ? "mac:\(address)" : "mac:\(address)/public"
        }
    }

    public var description: String { spec }

    private static func parseUInt16(_ text: Substring, field: String) throws(BeaconSpecError) -> UInt16 {
        var digits = text.utf8[...]
        let isNegative = digits.first == UInt8(ascii: "-")
        if isNegative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .notDecimal(field: field, text: String(text))
        }
        var value = 0
        for digit in digits {
            value = value * 10 + Int(digit - 0x30)
            if value > 0xFFFF { break }
        }
        guard !isNegative || value == 0, value <= 0xFFFF else {
            throw .outOfRange(field: field, text: String(text), range: 0...0xFFFF)
        }
        return UInt16(value)
    }

    private static func parseHex(_ text: Substring, field: String, digits: Int) throws(BeaconSpecError)
        -> [UInt8]
    {
        guard text.utf8.allSatisfy({ Hex.nibble($0) != nil }) else {
            throw .notHex(field: field, text: String(text))
        }
        guard text.utf8.count == digits, let bytes = Hex.bytes(text) else {
            throw .wrongHexLength(field: field, expectedDigits: digits, actualDigits: text.utf8.count)
        }
        return bytes
    }
}
