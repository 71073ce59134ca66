/// The frame types of protocol version 1, in both directions.
public enum FrameType: UInt8, Sendable, CaseIterable {
    // MCU to host
    case hello = 0x01
    case heartbeat = 0x02
    case nmea = 0x10
    case bleAdvertisement = 0x20
    case nfcTag = 0x30
    case power = 0x40
    case log = 0x7D
    case ack = 0x7F
    // Host to MCU
    case helloRequest = 0x81
    /// Revision 1.1: settles one of the MCU's reliable events (NFC_TAG, POWER); never ACKed.
    case eventAck = 0x82
    case bleFilter = 0x90
    case nfcWrite = 0xA0
    case feedback = 0xA1
    case bootloader = 0xB0

    /// Which side sends frames of this type.
    public var sender: LinkSide {
        rawValue < 0x80 ? .mcu : .host
    }

    /// The protocol's name, as used in JSON output (`ble_adv`, `nfc_tag`, ...).
    public var jsonName: String {
        switch self {
        case .hello: "hello"
        case .heartbeat: "heartbeat"
        case .nmea: "nmea"
        case .bleAdvertisement: "ble_adv"
        case .nfcTag: "nfc_tag"
        case .power: "power"
        case .log: "log"
        case .ack: "ack"
        case .helloRequest: "hello_req"
        case .eventAck: "event_ack"
        case .bleFilter: "ble_filter"
        case .nfcWrite: "nfc_write"
        case .feedback: "feedback"
        case .bootloader: "bootloader"
        }
    }
}

/// The two ends of the link.
public enum LinkSide: Sendable {
    case mcu
    case host

    public var peer: LinkSide { self == .mcu ? .host : .mcu }
}
