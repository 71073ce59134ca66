/// HELLO (0x01): the MCU's identity, sent at boot and in answer to HELLO_REQ.
public struct Hello: Sendable, Equatable {
    public static let maximumNameBytes = 32

    public var firmwareMajor: UInt8
    public var firmwareMinor: UInt8
    public var firmwarePatch: UInt8
    public var boardID: UInt16
    public var capabilities: MCUCapabilities
    public var uptimeMs: UInt32
    /// The board's name as sent: UTF-8, at most 32 bytes.
    public var nameBytes: ArraySlice<UInt8>

    public init(
        firmwareMajor: UInt8, firmwareMinor: UInt8, firmwarePatch: UInt8, boardID: UInt16,
        capabilities: MCUCapabilities, uptimeMs: UInt32, name: String
    ) {
        self.firmwareMajor = firmwareMajor
        self.firmwareMinor = firmwareMinor
        self.firmwarePatch = firmwarePatch
        self.boardID = boardID
        self.capabilities = capabilities
        self.uptimeMs = uptimeMs
        nameBytes = ArraySlice(name.utf8)
    }

    /// The name, each invalid UTF-8 sequence replaced by U+FFFD.
    public var name: String { String(decoding: nameBytes, as: UTF8.self) }

    /// `major.minor.patch`.
    public var firmwareVersion: String { "\(firmwareMajor).\(firmwareMinor).\(firmwarePatch)" }

    static func parse(_ payload: ArraySlice<UInt8>) throws(PayloadError) -> Hello {
        var reader = PayloadReader(payload, type: .hello)
        try reader.requireLength(11, 11 + maximumNameBytes)
        var hello = Hello(
            firmwareMajor: reader.u8(), firmwareMinor: reader.u8(), firmwarePatch: reader.u8(),
            boardID: reader.u16(), capabilities: MCUCapabilities(rawValue: reader.u16()),
            uptimeMs: reader.u32(), name: "")
        hello.nameBytes = reader.rest()
        return hello
    }

    func write(to writer: inout PayloadWriter) {
        writer.u8(firmwareMajor)
        writer.u8(firmwareMinor)
        writer.u8(firmwarePatch)
        writer.u16(boardID)
        writer.u16(capabilities.rawValue)
        writer.u32(uptimeMs)
        writer.append(nameBytes)
    }
}

/// HELLO's capabilities bits; reserved bits are kept as they came.
public struct MCUCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let nfcReader = MCUCapabilities(rawValue: 1 << 0)
    public static let bleScanner = MCUCapabilities(rawValue: 1 << 1)
    public static let gnss = MCUCapabilities(rawValue: 1 << 2)
    public static let nfcWrite = MCUCapabilities(rawValue: 1 << 3)
    public static let ignitionSense = MCUCapabilities(rawValue: 1 << 4)
    /// Revision 1.1: NFC_TAG and POWER are repeated until the host answers with EVENT_ACK.
    public static let reliableEvents = MCUCapabilities(rawValue: 1 << 5)

    /// Names of the known bits that are set, in bit order.
    public var names: [String] {
        let known: [(MCUCapabilities, String)] = [
            (.nfcReader, "nfc_reader"), (.bleScanner, "ble_scanner"), (.gnss, "gnss"),
            (.nfcWrite, "nfc_write"), (.ignitionSense, "ignition_sense"), (.reliableEvents, "reliable_events"),
        ]
        return known.filter { contains($0.0) }.map(\.1)
    }
}
