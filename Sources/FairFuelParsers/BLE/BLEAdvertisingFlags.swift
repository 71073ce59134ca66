/// The Flags AD structure (type 0x01): discoverability and BR/EDR support.
public struct BLEAdvertisingFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let limitedDiscoverable = BLEAdvertisingFlags(rawValue: 0x01)
    public static let generalDiscoverable = BLEAdvertisingFlags(rawValue: 0x02)
    public static let brEDRNotSupported = BLEAdvertisingFlags(rawValue: 0x04)
    public static let simultaneousLEAndBREDRController = BLEAdvertisingFlags(rawValue: 0x08)
    public static let simultaneousLEAndBREDRHost = BLEAdvertisingFlags(rawValue: 0x10)
}
