/// A USB id shared by many unrelated devices: a USB-serial bridge chip, a
/// board vendor's whole range, or a framework's default gadget id.
///
/// Matching one of these would hand some other device (a GPS mouse, an
/// Arduino, a 3D printer) to FairFuel, so profiles that name one are refused.
public struct GenericUSBSerialChip: Sendable, Equatable {
    public var vendorID: UInt16
    /// The product ids covered; `0...0xFFFF` for a whole vendor.
    public var productIDs: ClosedRange<UInt16>
    public var name: String

    public func matches(_ id: USBDeviceID) -> Bool {
        id.vendorID == vendorID && productIDs.contains(id.productID)
    }

    public static let all: [GenericUSBSerialChip] = [
        .init(vendorID: 0x0403, productIDs: 0x6001...0x6001, name: "FTDI FT232R/FT232AM"),
        .init(vendorID: 0x0403, productIDs: 0x6010...0x6010, name: "FTDI FT2232"),
        .init(vendorID: 0x0403, productIDs: 0x6011...0x6011, name: "FTDI FT4232"),
        .init(vendorID: 0x0403, productIDs: 0x6014...0x6014, name: "FTDI FT232H"),
        .init(vendorID: 0x0403, productIDs: 0x6015...0x6015, name: "FTDI FT-X series"),
        .init(vendorID: 0x1A86, productIDs: 0x7523...0x7523, name: "WCH CH340/CH341"),
        .init(vendorID: 0x1A86, productIDs: 0x55D4...0x55D4, name: "WCH CH9102"),
        .init(vendorID: 0x10C4, productIDs: 0xEA60...0xEA60, name: "Silicon Labs CP210x"),
        .init(vendorID: 0x10C4, productIDs: 0xEA70...0xEA70, name: "Silicon Labs CP2105"),
        .init(vendorID: 0x067B, productIDs: 0x2303...0x2303, name: "Prolific PL2303"),
        .init(vendorID: 0x0525, productIDs: 0xA4A7...0xA4A7, name: "the Linux gadget serial default (CDC ACM)"),
        .init(vendorID: 0x0525, productIDs: 0xA4A6...0xA4A6, name: "the Linux gadget serial default (generic)"),
        .init(vendorID: 0x1D6B, productIDs: 0x0104...0x0104, name: "the Linux multifunction composite gadget"),
        .init(vendorID: 0x2341, productIDs: 0x0000...0xFFFF, name: "an Arduino board"),
        .init(vendorID: 0x2E8A, productIDs: 0x000A...0x000A, name: "the Raspberry Pi Pico SDK's USB serial"),
        .init(vendorID: 0x303A, productIDs: 0x1001...0x1001, name: "Espressif's USB JTAG/serial"),
    ]
}
