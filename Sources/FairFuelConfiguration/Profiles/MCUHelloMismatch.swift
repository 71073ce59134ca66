import FairFuelLink

/// A way a HELLO falls short of its MCU profile.
public enum MCUHelloMismatch: Sendable, Equatable, CustomStringConvertible {
    case boardID(expected: UInt16, reported: UInt16)
    /// Firmware older than the profile's `min_firmware`: update the MCU.
    case firmwareTooOld(minimum: FirmwareVersion, reported: FirmwareVersion)
    /// Capabilities the profile lists that HELLO does not report.
    case missingCapabilities(MCUCapabilities)

    public var description: String {
        switch self {
        case let .boardID(expected, reported):
            "HELLO reports board_id 0x\(USBDeviceID.hex4(reported)), the profile expects 0x\(USBDeviceID.hex4(expected))"
        case let .firmwareTooOld(minimum, reported):
            "MCU firmware \(reported) is older than the minimum \(minimum); flash a newer firmware"
        case let .missingCapabilities(missing):
            "HELLO does not report \(missing.names.joined(separator: ", "))"
        }
    }
}

extension MCUBoardProfile {
    /// How `hello` differs from what this profile expects; empty when it matches.
    public func mismatches(with hello: Hello) -> [MCUHelloMismatch] {
        var found: [MCUHelloMismatch] = []
        if hello.boardID != boardID {
            found.append(.boardID(expected: boardID, reported: hello.boardID))
        }
        let reported = FirmwareVersion(
            major: hello.firmwareMajor, minor: hello.firmwareMinor, patch: hello.firmwarePatch)
        if reported < minimumFirmware {
            found.append(.firmwareTooOld(minimum: minimumFirmware, reported: reported))
        }
        let missing = capabilities.subtracting(hello.capabilities)
        if !missing.isEmpty {
            found.append(.missingCapabilities(missing))
        }
        return found
    }
}
