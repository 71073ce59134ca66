import FairFuelLink

/// What the host expects of one kind of MCU board: how to find it, and what its HELLO says.
///
/// Read from `boards/mcu-<name>.toml`. Unlike a board profile, an MCU profile
/// has no defaults for its identity: `[mcu]` and `[transport]` keys must be
/// set; only `[uart]` falls back to 115200 8N1.
public struct MCUBoardProfile: Sendable, Equatable {
    /// How the MCU is wired to the host.
    public enum Transport: String, Sendable, CaseIterable {
        /// A USB CDC-ACM device, matched by its USB ids.
        case usbCDC = "usb_cdc"
        /// A UART on the host's header; it has no USB ids.
        case uart
    }

    public enum Parity: String, Sendable, CaseIterable {
        case none, even, odd
    }

    /// `[uart]`: line settings (for `.usbCDC` the line coding the host sets, which CDC-ACM ignores).
    public struct UART: Sendable, Equatable {
        public var baud: Int
        public var dataBits: Int
        public var parity: Parity
        public var stopBits: Int

        public init(baud: Int = 115_200, dataBits: Int = 8, parity: Parity = .none, stopBits: Int = 1) {
            self.baud = baud
            self.dataBits = dataBits
            self.parity = parity
            self.stopBits = stopBits
        }

        /// `8N1` style.
        public var framing: String {
            let letter = switch parity {
            case .none: "N"
            case .even: "E"
            case .odd: "O"
            }
            return "\(dataBits)\(letter)\(stopBits)"
        }
    }

    /// The profile's name; its file is `mcu-<name>.toml`.
    public var name: String
    /// A line for people naming the hardware.
    public var description: String
    /// HELLO's board_id for this board.
    public var boardID: UInt16
    /// Capabilities the board has; HELLO must report at least these.
    public var capabilities: MCUCapabilities
    /// Oldest firmware the host works with.
    public var minimumFirmware: FirmwareVersion
    public var transport: Transport
    /// USB ids, set exactly when `transport` is `.usbCDC`.
    public var usbVendorID: UInt16?
    public var usbProductID: UInt16?
    public var uart: UART

    public init(
        name: String, description: String, boardID: UInt16, capabilities: MCUCapabilities,
        minimumFirmware: FirmwareVersion, transport: Transport, usbDevice: USBDeviceID?, uart: UART = UART()
    ) {
        self.name = name
        self.description = description
        self.boardID = boardID
        self.capabilities = capabilities
        self.minimumFirmware = minimumFirmware
        self.transport = transport
        usbVendorID = usbDevice?.vendorID
        usbProductID = usbDevice?.productID
        self.uart = uart
    }

    /// The USB ids, when both are set.
    public var usbDevice: USBDeviceID? {
        guard let usbVendorID, let usbProductID else { return nil }
        return USBDeviceID(vendorID: usbVendorID, productID: usbProductID)
    }

    /// `mcu-<name>.toml`.
    public static func fileName(forName name: String) -> String { "mcu-\(name).toml" }
}
