import FairFuelLink

/// The MCU profiles the host knows, looked up by name, HELLO board_id or USB ids.
///
/// No two profiles may share a name, a board_id or a USB id pair, so every
/// lookup has at most one answer.
public struct MCUBoardCatalog: Sendable, Equatable {
    public private(set) var profiles: [MCUBoardProfile]

    /// Throws `ProfileError.conflict` when two profiles share a name, board_id or USB ids.
    public init(_ profiles: [MCUBoardProfile]) throws(ProfileError) {
        for (index, profile) in profiles.enumerated() {
            for earlier in profiles[..<index] {
                if earlier.name == profile.name {
                    throw .conflict(what: "the name '\(profile.name)'", first: earlier.name, second: profile.name)
                }
                if earlier.boardID == profile.boardID {
                    throw .conflict(
                        what: "board_id 0x\(USBDeviceID.hex4(profile.boardID))", first: earlier.name,
                        second: profile.name)
                }
                if let id = profile.usbDevice, earlier.usbDevice == id {
                    throw .conflict(what: "USB id \(id)", first: earlier.name, second: profile.name)
                }
            }
        }
        self.profiles = profiles
    }

    private init(unchecked profiles: [MCUBoardProfile]) {
        self.profiles = profiles
    }

    /// The profiles compiled into the service (equal to `boards/mcu-*.toml`).
    public static let builtIn = MCUBoardCatalog(unchecked: [.fairFuelRevB, .fairFuelUART])

    public func profile(named name: String) -> MCUBoardProfile? {
        profiles.first { $0.name == name }
    }

    /// The profile for a HELLO's board_id.
    public func profile(boardID: UInt16) -> MCUBoardProfile? {
        profiles.first { $0.boardID == boardID }
    }

    /// The profile of a USB device; nil for any id no profile names (never a generic chip).
    public func profile(usbVendorID: UInt16, usbProductID: UInt16) -> MCUBoardProfile? {
        let id = USBDeviceID(vendorID: usbVendorID, productID: usbProductID)
        return profiles.first { $0.usbDevice == id }
    }

    /// The profile for the board that sent `hello`.
    public func profile(for hello: Hello) -> MCUBoardProfile? {
        profile(boardID: hello.boardID)
    }
}
