/// What a driver's NFC tag is known by; inline value with no heap storage.
public enum TagIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The driver a `fairfuel://driver/<uuid>` URI record names.
    case driver(UUID128)
    case uid(TagUID)

    /// `driver:<uuid>` or `uid:<AA:BB:…>`.
    public var description: String {
        switch self {
        case .driver(let id): "driver:\(id)"
        case .uid(let uid): "uid:\(uid)"
        }
    }
}
