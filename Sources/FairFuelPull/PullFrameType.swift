import FairFuelLink

/// The USB pull's frame types (docs/usb-pull-protocol.md), carried in the MCU link's framing.
///
/// The laptop opens a connection with the link's own HELLO_REQ (0x81), which restarts the
/// dongle's sequence check; every other type lives in 0xC0-0xDF, unused by the MCU link.
public enum PullFrameType: UInt8, Sendable, CaseIterable {
    // Laptop to dongle.
    case helloRequest = 0x81
    case auth = 0xC0
    case get = 0xC1
    case bye = 0xC2
    // Dongle to laptop.
    case hello = 0xD0
    case authOK = 0xD1
    case data = 0xD2
    case end = 0xD3
    case error = 0xDF

    /// Which end sends frames of this type.
    public var sender: PullSide { rawValue < 0xD0 ? .laptop : .dongle }
}

/// An end of the USB pull link.
public enum PullSide: Sendable {
    case laptop
    case dongle
}

/// The USB pull protocol's version, carried in HELLO_REQ and HELLO.
public enum PullProtocolVersion {
    public static let major: UInt8 = 1
    public static let minor: UInt8 = 0
}
