/// The TNF field of an NDEF record header: how to read its TYPE field.
///
/// The value 7 is reserved and never decodes (`NDEFError.reservedTypeNameFormat`).
public enum NDEFTypeNameFormat: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case empty = 0
    /// NFC Forum well-known type (RTD), such as "U" (URI) or "T" (text).
    case wellKnown = 1
    /// A MIME media type (RFC 2046).
    case media = 2
    case absoluteURI = 3
    /// NFC Forum external type (`domain:type`).
    case external = 4
    case unknown = 5
    /// Only valid in the middle and last chunks of a chunked record.
    case unchanged = 6

    public var description: String {
        switch self {
        case .empty: "empty"
        case .wellKnown: "well-known"
        case .media: "media"
        case .absoluteURI: "absolute URI"
        case .external: "external"
        case .unknown: "unknown"
        case .unchanged: "unchanged"
        }
    }
}
