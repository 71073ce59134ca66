/// The URI `fairfuel://driver/<uuid>` that names a driver on a tag, surviving a replaced tag.
///
/// Recognised with the scheme in any case (RFC 3986 schemes are case-insensitive) and the
/// UUID in either case; `//driver/` must match exactly and nothing may follow the UUID.
/// Printed with a lower-case UUID.
public struct DriverURI: Hashable, Sendable, CustomStringConvertible {
    public static let prefix: StaticString = "fairfuel://driver/"
    /// Bytes of the prefix and of an 8-4-4-4-12 UUID.
    private static let byteCount = 18 + 36

    public var driverID: UUID128

    public init(driverID: UUID128) { self.driverID = driverID }

    /// Recognises a full URI given as UTF-8; nil for any other URI. Allocates nothing.
    public init?(uriBytes: ArraySlice<UInt8>) {
        guard uriBytes.count == DriverURI.byteCount else { return nil }
        let matchesPrefix = DriverURI.prefix.withUTF8Buffer { prefix in
            for (offset, expected) in prefix.enumerated() {
                var byte = uriBytes[uriBytes.startIndex + offset]
                // Fold the scheme ("fairfuel", letters only) to lower case.
                if offset < 8, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                if byte != expected { return false }
            }
            return true
        }
        guard matchesPrefix, let id = UUID128(utf8: uriBytes.dropFirst(18)) else { return nil }
        driverID = id
    }

    /// Recognises a URI record; nil for any other URI.
    ///
    /// No RTD-URI prefix abbreviates `fairfuel:`, so only identifier code 0x00 can carry it.
    public init?(_ record: NDEFURIRecord) {
        guard record.prefixCode == 0 else { return nil }
        self.init(uriBytes: record.uriField)
    }

    /// Recognises text such as `fairfuel://driver/0f8fad5b-d9cb-469f-a165-70867728950e`.
    public init?(_ text: String) {
        self.init(uriBytes: Array(text.utf8)[...])
    }

    public var description: String { "\(DriverURI.prefix)\(driverID)" }

    /// The NFC_WRITE message: one short URI record (MB|ME|SR, TNF 1, type "U", code 0x00).
    public var ndefMessage: [UInt8] {
        // 55 payload bytes, well below the 255 of a short record and of NDEFEncoder's limits.
        (try? NDEFEncoder.uriMessage(description, abbreviating: false)) ?? []
    }
}
