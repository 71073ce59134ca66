import FairFuelCore

/// Why a textual beacon spec (`ibeacon:…`, `eddystone:…`, `altbeacon:…`, `mac:…`) was refused.
public enum BeaconSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    /// The text before the first `:`, or the whole text when it has none.
    case unknownScheme(String)
    case wrongFieldCount(scheme: String, expected: Int, actual: Int)
    case badUUID(String)
    case notDecimal(field: String, text: String)
    case outOfRange(field: String, text: String, range: ClosedRange<Int>)
    case notHex(field: String, text: String)
    case wrongHexLength(field: String, expectedDigits: Int, actualDigits: Int)
    case badAddress(String)
    /// The address is private (it rotates) or invalid, so it cannot name a beacon.
    case unstableAddress(BLEAddress, kind: BLEAddressKind)

    public var description: String {
        switch self {
        case .empty:
            return "empty beacon spec; expected ibeacon:UUID:MAJOR:MINOR, "
                + "eddystone:NAMESPACE:INSTANCE, altbeacon:ID or mac:AA:BB:CC:DD:EE:FF"
        case .unknownScheme(let scheme):
            return "unknown beacon scheme '\(scheme)'; expected ibeacon, eddystone, altbeacon or mac"
        case .wrongFieldCount(let scheme, let expected, let actual):
            return "\(scheme) spec needs \(expected) field(s) after '\(scheme):', got \(actual)"
        case .badUUID(let text):
            return "bad UUID '\(text)'; expected 8-4-4-4-12 hex digits like "
                + "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
        case .notDecimal(let field, let text):
            return "\(field) '\(text)' is not a decimal number"
        case .outOfRange(let field, let text, let range):
            return "\(field) \(text) is outside \(range.lowerBound)...\(range.upperBound)"
        case .notHex(let field, let text):
            return "\(field) '\(text)' is not hexadecimal"
        case .wrongHexLength(let field, let expected, let actual):
            return "\(field) needs \(expected) hex digits, got \(actual)"
        case .badAddress(let text):
            return "bad address '\(text)'; expected AA:BB:CC:DD:EE:FF"
        case .unstableAddress(let address, let kind):
            let article = "\(kind)".first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return "\(address) is \(article) \(kind) address (top bits "
                + "\(address.topBits >> 1)\(address.topBits & 1)), which rotates and cannot identify "
                + "a beacon; provision its iBeacon or Eddystone identity, or, if it is the device's "
                + "public (IEEE) address, write mac:\(address)/public"
        }
    }
}
