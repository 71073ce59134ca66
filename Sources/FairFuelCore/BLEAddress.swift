/// A 48-bit Bluetooth device address, most significant byte first as printed.
public struct BLEAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The address in the low 48 bits, first printed byte most significant.
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue & 0xFFFF_FFFF_FFFF
    }

    /// From six bytes, most significant first (`AA` of `AA:BB:CC:DD:EE:FF` first).
    public init<C: Collection>(bytes: C) where C.Element == UInt8 {
        precondition(bytes.count == 6, "a BLE address has six bytes")
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        self.init(rawValue: value)
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (either case); nil when malformed.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var value: UInt64 = 0
        for part in parts {
            guard part.utf8.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            value = value << 8 | UInt64(byte)
        }
        self.init(rawValue: value)
    }

    /// The six bytes, most significant first.
    public var bytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> UInt64(40 - 8 * $0)) }
    }

    /// The two top bits of the most significant byte, which classify random addresses.
    public var topBits: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 46) }

    public var description: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = ""
        text.reserveCapacity(17)
        for index in 0..<6 {
            if index > 0 { text += ":" }
            let byte = UInt8(truncatingIfNeeded: rawValue >> UInt64(40 - 8 * index))
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0xF)]))
        }
        return text
    }

    public static func < (lhs: BLEAddress, rhs: BLEAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Whether an advertiser's address is its public (IEEE) address or a random one.
public enum BLEAddressType: UInt8, Sendable, CaseIterable {
    case `public` = 0
    case random = 1

    public var name: String { self == .public ? "public" : "random" }
}

/// The PDU type of a received advertisement.
public enum BLEAdvertisingType: UInt8, Sendable, CaseIterable {
    case connectableUndirected = 0  // ADV_IND
    case connectableDirected = 1  // ADV_DIRECT_IND
    case scannableUndirected = 2  // ADV_SCAN_IND
    case nonConnectableUndirected = 3  // ADV_NONCONN_IND
    case scanResponse = 4  // SCAN_RSP
    case extended = 5

    /// Legacy PDUs carry at most 31 bytes of advertising data; extended ones up to 255 on air.
    public var isLegacy: Bool { self != .extended }

    public var name: String {
        switch self {
        case .connectableUndirected: "ADV_IND"
        case .connectableDirected: "ADV_DIRECT_IND"
        case .scannableUndirected: "ADV_SCAN_IND"
        case .nonConnectableUndirected: "ADV_NONCONN_IND"
        case .scanResponse: "SCAN_RSP"
        case .extended: "EXTENDED"
        }
    }
}

/// The radio technology of an NFC tag read.
public enum NFCTechnology: UInt8, Sendable, CaseIterable {
    case iso14443A = 0
    case iso14443B = 1
    case feliCa = 2
    case iso15693 = 3

    public var name: String {
        switch self {
        case .iso14443A: "ISO14443A"
        case .iso14443B: "ISO14443B"
        case .feliCa: "FeliCa"
        case .iso15693: "ISO15693"
        }
    }

    /// Whether this technology can report a UID of `length` bytes.
    public func acceptsUIDLength(_ length: Int) -> Bool {
        switch self {
        case .iso14443A: length == 4 || length == 7 || length == 10
        case .iso14443B: length == 4
        case .feliCa, .iso15693: length == 8
        }
    }
}
