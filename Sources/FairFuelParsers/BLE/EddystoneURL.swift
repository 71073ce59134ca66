/// An Eddystone-URL frame (frame type 0x10): a compressed URL.
public struct EddystoneURL: Sendable, Equatable {
    /// URL scheme prefixes by code (0x00...0x03).
    public static let schemePrefixes = ["http://www.", "https://www.", "http://", "https://"]
    /// Expansions of encoded bytes 0x00...0x0D.
    public static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]

    /// The beacon's calibrated TX power in dBm at 0 m.
    public var txPowerAt0mDBm: Int8
    /// Index into `schemePrefixes`.
    public var schemeCode: UInt8
    /// The encoded URL after the scheme; shares the advertisement's storage.
    public var encodedURL: ArraySlice<UInt8>

    /// Decodes the Eddystone service data `frame`; nil when not a URL frame or when it holds an
    /// unknown scheme code or a reserved byte (0x0E...0x20, 0x7F...0xFF).
    public init?(frame: ArraySlice<UInt8>) {
        guard frame.count >= 3, frame[frame.startIndex] == 0x10 else { return nil }
        let start = frame.startIndex
        let scheme = frame[start + 2]
        guard Int(scheme) < EddystoneURL.schemePrefixes.count else { return nil }
        let encoded = frame[(start + 3)...]
        for byte in encoded where !(byte <= 0x0D || (byte >= 0x21 && byte <= 0x7E)) {
            return nil
        }
        txPowerAt0mDBm = BeaconBytes.int8(frame, 1)
        schemeCode = scheme
        encodedURL = encoded
    }

    /// The expanded URL (allocates; for display and logs).
    public var url: String {
        var text = EddystoneURL.schemePrefixes[Int(schemeCode)]
        for byte in encodedURL {
            if byte <= 0x0D {
                text += EddystoneURL.expansions[Int(byte)]
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }
}
