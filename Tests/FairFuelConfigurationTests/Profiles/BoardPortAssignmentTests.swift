import FairFuelConfiguration
import Testing
import TestSupport

/// No host profile gives one physical port two jobs: the MCU link and the USB pull's gadget.
@Suite struct BoardPortAssignmentTests {
    /// Each host board's USB data ports, from its data sheet. An OTG port is a gadget or a host,
    /// never both at once. A new profile must be described here before it passes.
    static let usbPorts: [String: (hostOnly: Int, otg: Int)] = [
        "pi-zero-2w": (hostOnly: 0, otg: 1),  // one micro-USB data port ("USB"), dwc2
        "pi-4": (hostOnly: 4, otg: 1),  // four USB-A host ports; the USB-C port is OTG (dwc2)
        "x86-64-dev": (hostOnly: 2, otg: 0),  // a PC: host ports, no gadget
    ]

    @Test(arguments: try BoardFiles.hostProfiles())
    func noProfileAssignsOnePortTwice(file: String) throws {
        let profile = try BoardProfile.load(text: BoardFiles.text(file))
        let catalog = try MCUBoardCatalog(try BoardFiles.mcuProfiles().map { try MCUBoardProfile.load(text: BoardFiles.text($0)) })
        let ports = try #require(Self.usbPorts[profile.board.name], "describe the USB ports of \(profile.board.name) in this test")
        let mcu = try #require(catalog.profile(named: profile.link.mcuBoard), "\(file): no MCU profile \(profile.link.mcuBoard)")
        var otgFree = ports.otg
        if profile.usbPull.enabled {
            #expect(otgFree >= 1, "\(file): the USB pull needs a gadget (OTG) port and \(profile.board.name) has none")
            otgFree -= 1
        }
        if mcu.transport == .usbCDC {
            #expect(ports.hostOnly + otgFree >= 1,
                    "\(file): the MCU (\(mcu.name)) needs a USB host port, and the only one is the pull's gadget port")
        }
        if profile.usbPull.enabled { #expect(profile.link.port != profile.usbPull.port, "\(file): one device for the MCU and the pull") }
    }

    @Test func theZeroKeepsItsOnlyUSBPortForThePull() throws {
        let zero = BoardProfile.piZero2W
        #expect(zero.usbPull.enabled)
        #expect(MCUBoardCatalog.builtIn.profile(named: zero.link.mcuBoard)?.transport == .uart)
    }
}
