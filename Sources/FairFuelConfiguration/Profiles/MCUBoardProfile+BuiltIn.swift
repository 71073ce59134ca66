extension MCUBoardProfile {
    /// The FairFuel MCU rev B on USB; must equal `boards/mcu-fairfuel-rev-b.toml`.
    public static let fairFuelRevB = MCUBoardProfile(
        name: "fairfuel-rev-b",
        description: "FairFuel MCU rev B: NFC reader and writer, BLE scanner, GNSS, ignition sense; USB CDC-ACM",
        boardID: 0x0101,
        capabilities: [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense],
        minimumFirmware: FirmwareVersion(major: 1, minor: 4, patch: 0),
        transport: .usbCDC,
        usbDevice: .fairFuelMCURevB)

    /// The FairFuel MCU wired to the Pi's UART header; must equal `boards/mcu-fairfuel-uart.toml`.
    public static let fairFuelUART = MCUBoardProfile(
        name: "fairfuel-uart",
        description: "FairFuel MCU, UART variant on the Pi header (GPIO 14/15, PL011 ttyAMA0): "
            + "NFC reader and writer, BLE scanner, GNSS, ignition sense",
        boardID: 0x0102,
        capabilities: [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense],
        minimumFirmware: FirmwareVersion(major: 1, minor: 4, patch: 0),
        transport: .uart,
        usbDevice: nil)
}
