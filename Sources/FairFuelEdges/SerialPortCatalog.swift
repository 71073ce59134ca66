import CSerialPort

/// A serial port the system knows, as libserialport enumerates it.
public struct SerialPortInfo: Sendable, Equatable {
    public enum Transport: String, Sendable {
        case native, usb, bluetooth, unknown
    }

    /// Device path, e.g. `/dev/ttyACM0`.
    public var path: String
    public var description: String
    public var transport: Transport
    /// USB vendor and product ids, for USB ports.
    public var usbVendorID: UInt16?
    public var usbProductID: UInt16?
    public var usbSerialNumber: String?
}

/// Lists serial ports through libserialport's enumeration.
public enum SerialPortCatalog {
    /// The libserialport library version, e.g. `0.1.1`.
    public static var libraryVersion: String { String(cString: sp_get_package_version_string()) }

    /// Every port libserialport finds; empty when none (or enumeration fails).
    public static func list() -> [SerialPortInfo] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        guard sp_list_ports(&list) == SP_OK, let ports = list else { return [] }
        defer { sp_free_port_list(ports) }
        var result: [SerialPortInfo] = []
        var index = 0
        while let port = ports[index] {
            index += 1
            result.append(info(port))
        }
        return result
    }

    /// Ports whose USB vendor and product ids match.
    public static func find(usbVendorID: UInt16, usbProductID: UInt16) -> [SerialPortInfo] {
        list().filter { $0.usbVendorID == usbVendorID && $0.usbProductID == usbProductID }
    }

    static func info(_ port: OpaquePointer) -> SerialPortInfo {
        let transport: SerialPortInfo.Transport
        switch sp_get_port_transport(port) {
        case SP_TRANSPORT_NATIVE: transport = .native
        case SP_TRANSPORT_USB: transport = .usb
        case SP_TRANSPORT_BLUETOOTH: transport = .bluetooth
        default: transport = .unknown
        }
        var info = SerialPortInfo(
            path: sp_get_port_name(port).map { String(cString: $0) } ?? "?",
            description: sp_get_port_description(port).map { String(cString: $0) } ?? "",
            transport: transport)
        if transport == .usb {
            var vendor: Int32 = 0
            var product: Int32 = 0
            if sp_get_port_usb_vid_pid(port, &vendor, &product) == SP_OK {
                info.usbVendorID = UInt16(truncatingIfNeeded: vendor)
                info.usbProductID = UInt16(truncatingIfNeeded: product)
            }
            info.usbSerialNumber = sp_get_port_usb_serial(port).map { String(cString: $0) }
        }
        return info
    }
}

extension SerialPortInfo {
    init(path: String, description: String, transport: Transport) {
        self.init(
            path: path, description: description, transport: transport, usbVendorID: nil,
            usbProductID: nil, usbSerialNumber: nil)
    }
}
