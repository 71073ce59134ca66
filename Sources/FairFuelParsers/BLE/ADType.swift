/// The type byte of an AD structure (Bluetooth Assigned Numbers, "Common Data Types").
///
/// A struct rather than an enum so that types this parser does not decode still pass through.
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let flags = ADType(rawValue: 0x01)
    public static let incompleteServiceUUIDs16 = ADType(rawValue: 0x02)
    public static let completeServiceUUIDs16 = ADType(rawValue: 0x03)
    public static let incompleteServiceUUIDs32 = ADType(rawValue: 0x04)
    public static let completeServiceUUIDs32 = ADType(rawValue: 0x05)
    public static let incompleteServiceUUIDs128 = ADType(rawValue: 0x06)
    public static let completeServiceUUIDs128 = ADType(rawValue: 0x07)
    public static let shortLocalName = ADType(rawValue: 0x08)
    public static let completeLocalName = ADType(rawValue: 0x09)
    public static let txPowerLevel = ADType(rawValue: 0x0A)
    public static let serviceData16 = ADType(rawValue: 0x16)
    public static let serviceData32 = ADType(rawValue: 0x20)
    public static let serviceData128 = ADType(rawValue: 0x21)
    public static let manufacturerData = ADType(rawValue: 0xFF)

    /// Bytes per UUID when this type is a service UUID list (0x02...0x07), else nil.
    public var serviceUUIDListWidth: Int? {
        switch rawValue {
        case 0x02, 0x03: 2
        case 0x04, 0x05: 4
        case 0x06, 0x07: 16
        default: nil
        }
    }

    /// Bytes of the UUID that opens the value when this type is service data, else nil.
    public var serviceDataUUIDWidth: Int? {
        switch rawValue {
        case 0x16: 2
        case 0x20: 4
        case 0x21: 16
        default: nil
        }
    }

    public var description: String {
        switch rawValue {
        case 0x01: "flags"
        case 0x02: "incomplete 16-bit service UUIDs"
        case 0x03: "complete 16-bit service UUIDs"
        case 0x04: "incomplete 32-bit service UUIDs"
        case 0x05: "complete 32-bit service UUIDs"
        case 0x06: "incomplete 128-bit service UUIDs"
        case 0x07: "complete 128-bit service UUIDs"
        case 0x08: "short local name"
        case 0x09: "complete local name"
        case 0x0A: "TX power level"
        case 0x16: "16-bit service data"
        case 0x20: "32-bit service data"
        case 0x21: "128-bit service data"
        case 0xFF: "manufacturer data"
        default: "AD type 0x" + String(rawValue, radix: 16, uppercase: true)
        }
    }
}
