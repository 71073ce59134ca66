/// A USB vendor and product id pair, printed as `1209:4646` like `lsusb` does.
public struct USBDeviceID: Sendable, Hashable, CustomStringConvertible {
    public var vendorID: UInt16
    public var productID: UInt16

    public init(vendorID: UInt16, productID: UInt16) {
        self.vendorID = vendorID
        self.productID = productID
    }

    /// The FairFuel MCU rev B's CDC-ACM interface (pid.codes vendor 0x1209, product 0x4646).
    public static let fairFuelMCURevB = USBDeviceID(vendorID: 0x1209, productID: 0x4646)
    /// The dongle's own USB gadget serial port, as a laptop sees it (pid.codes 0x1209, product 0x4647).
    public static let fairFuelDongleGadget = USBDeviceID(vendorID: 0x1209, productID: 0x4647)

    /// The generic USB-serial chip or default id this is, if it is one; FairFuel never matches those.
    public var genericSerialChip: GenericUSBSerialChip? {
        GenericUSBSerialChip.all.first { $0.matches(self) }
    }

    public var description: String { Self.hex4(vendorID) + ":" + Self.hex4(productID) }

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
