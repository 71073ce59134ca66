import FairFuelEdges
import FairFuelLink
import Foundation
import FairFuelConfiguration
import TestSupport
import Testing

@Suite("MCU board profiles")
struct MCUBoardProfileTests {
    static let revBText = """
        [mcu]
        name = "test-board"
        description = "a test board"
        board_id = 0x0201
        capabilities = ["nfc_reader", "gnss"]
        min_firmware = "2.0.1"
        [transport]
        kind = "usb_cdc"
        usb_vendor_id = 0x1209
        usb_product_id = 0x46FF
        """

    @Test("boards/ holds the MCU profiles we ship")
    func shippedProfiles() throws {
        #expect(try BoardFiles.mcuProfiles() == ["mcu-fairfuel-rev-b.toml", "mcu-fairfuel-uart.toml"])
    }

    @Test("every MCU profile in boards/ loads and is named after its file")
    func everyFileLoads() throws {
        for file in try BoardFiles.mcuProfiles() {
            let profile = try MCUBoardProfile.load(text: BoardFiles.text(file))
            #expect(MCUBoardProfile.fileName(forName: profile.name) == file)
            #expect(try MCUBoardProfile.load(text: profile.tomlText) == profile)
            #expect(try BoardFiles.text(file).hasPrefix("# FairFuel MCU profile: "))
        }
    }

    @Test("the compiled-in MCU profiles equal their files")
    func builtInMatchesFiles() throws {
        #expect(try MCUBoardProfile.load(text: BoardFiles.text("mcu-fairfuel-rev-b.toml")) == .fairFuelRevB)
        #expect(try MCUBoardProfile.load(text: BoardFiles.text("mcu-fairfuel-uart.toml")) == .fairFuelUART)
        let fromFiles = try MCUBoardCatalog(try BoardFiles.mcuProfiles().map { try MCUBoardProfile.load(text: BoardFiles.text($0)) })
        #expect(fromFiles == MCUBoardCatalog.builtIn)
        #expect(try MCUBoardCatalog(MCUBoardCatalog.builtIn.profiles) == .builtIn)
    }

    @Test("rev B is FairFuel's pid.codes id on USB; the UART variant has no USB ids")
    func shippedValues() {
        let revB = MCUBoardProfile.fairFuelRevB
        #expect(revB.usbDevice == USBDeviceID(vendorID: 0x1209, productID: 0x4646))
        #expect(revB.usbDevice?.description == "1209:4646")
        #expect(revB.transport == .usbCDC)
        #expect(revB.boardID == 0x0101)
        #expect(revB.capabilities == [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense])
        #expect(revB.uart.framing == "8N1")
        #expect(revB.uart.baud == 115_200)
        let uart = MCUBoardProfile.fairFuelUART
        #expect(uart.transport == .uart)
        #expect(uart.usbDevice == nil)
        #expect(uart.uart.framing == "8N1")
        #expect(BoardProfile.piZero2W.usbPull.usbVendorID == 0x1209)
        #expect(BoardProfile.piZero2W.usbPull.usbProductID == 0x4647)
    }

    @Test("catalog lookups by name, board_id, USB ids and HELLO")
    func lookups() {
        let catalog = MCUBoardCatalog.builtIn
        #expect(catalog.profile(named: "fairfuel-rev-b") == .fairFuelRevB)
        #expect(catalog.profile(named: "fairfuel-rev-c") == nil)
        #expect(catalog.profile(boardID: 0x0101) == .fairFuelRevB)
        #expect(catalog.profile(boardID: 0x0102) == .fairFuelUART)
        #expect(catalog.profile(boardID: 0xFFFF) == nil)
        #expect(catalog.profile(usbVendorID: 0x1209, usbProductID: 0x4646) == .fairFuelRevB)
        #expect(catalog.profile(usbVendorID: 0x1209, usbProductID: 0x4647) == nil, "the dongle's gadget is no MCU")
        for chip in GenericUSBSerialChip.all {
            #expect(catalog.profile(usbVendorID: chip.vendorID, usbProductID: chip.productIDs.lowerBound) == nil)
        }
        let hello = Hello(
            firmwareMajor: 1, firmwareMinor: 4, firmwarePatch: 2, boardID: 0x0101,
            capabilities: [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense], uptimeMs: 0,
            name: "FairFuel MCU rev B")
        #expect(catalog.profile(for: hello) == .fairFuelRevB)
    }

    @Test("the shipped sample capture's HELLO matches the rev B profile")
    func sampleCaptureHello() throws {
        var hellos: [Hello] = []
        _ = try CaptureReading(path: PackagePaths.root + "/samples/drive-20s.ffcap").run { _, output in
            if case let .frame(frame) = output, case let .hello(hello) = frame.message { hellos.append(hello) }
        }
        let hello = try #require(hellos.first)
        let profile = try #require(MCUBoardCatalog.builtIn.profile(for: hello))
        #expect(profile == .fairFuelRevB)
        #expect(profile.mismatches(with: hello) == [])
    }

    @Test("a HELLO that falls short lists each shortfall")
    func helloMismatches() {
        let hello = Hello(
            firmwareMajor: 1, firmwareMinor: 3, firmwarePatch: 9, boardID: 0x0102,
            capabilities: [.nfcReader, .bleScanner, .gnss], uptimeMs: 0, name: "old")
        let found = MCUBoardProfile.fairFuelRevB.mismatches(with: hello)
        #expect(
            found == [
                .boardID(expected: 0x0101, reported: 0x0102),
                .firmwareTooOld(
                    minimum: FirmwareVersion(major: 1, minor: 4, patch: 0),
                    reported: FirmwareVersion(major: 1, minor: 3, patch: 9)),
                .missingCapabilities([.nfcWrite, .ignitionSense]),
            ])
        #expect(found[1].description == "MCU firmware 1.3.9 is older than the minimum 1.4.0; flash a newer firmware")
        #expect(found[2].description == "HELLO does not report nfc_write, ignition_sense")
        var extra = hello
        extra.firmwareMinor = 5
        extra.boardID = 0x0101
        extra.capabilities = MCUCapabilities(rawValue: 0xFFFF)  // reserved bits are fine
        #expect(MCUBoardProfile.fairFuelRevB.mismatches(with: extra) == [])
    }

    @Test("firmware versions parse strictly and compare numerically")
    func firmwareVersions() {
        #expect(FirmwareVersion("1.4.0") == FirmwareVersion(major: 1, minor: 4, patch: 0))
        #expect(FirmwareVersion("255.0.10") == FirmwareVersion(major: 255, minor: 0, patch: 10))
        for bad in ["1.4", "1.4.0.0", "1.04.0", "1.4.256", "1..0", "v1.4.0", "1.4.-1", "", "1.4.0 "] {
            #expect(FirmwareVersion(bad) == nil, "\(bad)")
        }
        #expect(FirmwareVersion("1.10.0")! > FirmwareVersion("1.9.9")!)
    }

    @Test("every capability bit name survives a round trip")
    func capabilityNames() throws {
        var profile = MCUBoardProfile.fairFuelRevB
        for raw in [UInt16(0), 1, 0b10101, 0b11111] {
            profile.capabilities = MCUCapabilities(rawValue: raw)
            #expect(try MCUBoardProfile.load(text: profile.tomlText).capabilities.rawValue == raw)
        }
    }

    @Test("a minimal profile loads; [uart] defaults to 115200 8N1")
    func minimal() throws {
        let profile = try MCUBoardProfile.load(text: Self.revBText)
        #expect(profile.name == "test-board")
        #expect(profile.boardID == 0x0201)
        #expect(profile.capabilities == [.nfcReader, .gnss])
        #expect(profile.minimumFirmware == FirmwareVersion(major: 2, minor: 0, patch: 1))
        #expect(profile.usbDevice == USBDeviceID(vendorID: 0x1209, productID: 0x46FF))
        #expect(profile.uart == MCUBoardProfile.UART(baud: 115_200, dataBits: 8, parity: .none, stopBits: 1))
    }

    // MARK: - Errors

    struct ErrorCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var error: ProfileError
        var testDescription: String { name }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(
            name: "no board_id", text: revBText.replacingOccurrences(of: "board_id = 0x0201\n", with: ""),
            error: .missingKey(section: "mcu", key: "board_id")),
        ErrorCase(
            name: "no [transport]", text: revBText.split(separator: "\n").prefix(6).joined(separator: "\n"),
            error: .missingKey(section: "transport", key: "kind")),
        ErrorCase(
            name: "USB without a product id",
            text: revBText.replacingOccurrences(of: "usb_product_id = 0x46FF", with: ""),
            error: .missingKey(section: "transport", key: "usb_product_id")),
        ErrorCase(
            name: "USB without any id",
            text: revBText.replacingOccurrences(of: "usb_vendor_id = 0x1209\nusb_product_id = 0x46FF", with: ""),
            error: .missingKey(section: "transport", key: "usb_vendor_id")),
        ErrorCase(
            name: "FTDI chip id",
            text: revBText.replacingOccurrences(of: "0x1209\nusb_product_id = 0x46FF", with: "0x0403\nusb_product_id = 0x6001"),
            error: .outOfRange(
                line: 10, key: "transport.usb_product_id", value: "0403:6001",
                allowed: "0403:6001 is FTDI FT232R/FT232AM, shared by countless devices; "
                    + "FairFuel matches only its own ids (pid.codes 1209:4646 for the MCU rev B)")),
        ErrorCase(
            name: "Arduino vendor",
            text: revBText.replacingOccurrences(of: "0x1209\nusb_product_id = 0x46FF", with: "0x2341\nusb_product_id = 0x0043"),
            error: .outOfRange(
                line: 10, key: "transport.usb_product_id", value: "2341:0043",
                allowed: "2341:0043 is an Arduino board, shared by countless devices; "
                    + "FairFuel matches only its own ids (pid.codes 1209:4646 for the MCU rev B)")),
        ErrorCase(
            name: "UART with a USB id",
            text: revBText.replacingOccurrences(of: "kind = \"usb_cdc\"", with: "kind = \"uart\""),
            error: .outOfRange(
                line: 9, key: "transport.usb_vendor_id", value: "4617",
                allowed: "a UART-wired MCU has no USB ids; remove the key or set kind = \"usb_cdc\"")),
        ErrorCase(
            name: "unknown capability",
            text: revBText.replacingOccurrences(of: "\"nfc_reader\"", with: "\"nfc_reeder\""),
            error: .outOfRange(
                line: 5, key: "mcu.capabilities", value: "\"nfc_reeder\"",
                allowed: "each capability must be one of \"nfc_reader\", \"ble_scanner\", \"gnss\", \"nfc_write\", \"ignition_sense\", \"reliable_events\"")),
        ErrorCase(
            name: "capabilities as bits",
            text: revBText.replacingOccurrences(of: "[\"nfc_reader\", \"gnss\"]", with: "[1, 4]"),
            error: .wrongType(line: 5, key: "mcu.capabilities", expected: "array of strings", found: "array of integers")),
        ErrorCase(
            name: "capabilities as one string",
            text: revBText.replacingOccurrences(of: "[\"nfc_reader\", \"gnss\"]", with: "\"gnss\""),
            error: .wrongType(line: 5, key: "mcu.capabilities", expected: "array", found: "string")),
        ErrorCase(
            name: "firmware without a patch number",
            text: revBText.replacingOccurrences(of: "\"2.0.1\"", with: "\"2.0\""),
            error: .outOfRange(
                line: 6, key: "mcu.min_firmware", value: "\"2.0\"",
                allowed: "it must be major.minor.patch, each 0...255, like \"1.4.0\"")),
        ErrorCase(
            name: "board_id over 16 bits",
            text: revBText.replacingOccurrences(of: "0x0201", with: "0x1_0000"),
            error: .outOfRange(
                line: 4, key: "mcu.board_id", value: "65536",
                allowed: "it must be 0...65535 (HELLO's board_id, written like 0x0101)")),
        ErrorCase(
            name: "unknown transport",
            text: revBText.replacingOccurrences(of: "\"usb_cdc\"", with: "\"usb\""),
            error: .outOfRange(
                line: 8, key: "transport.kind", value: "\"usb\"", allowed: "it must be one of \"usb_cdc\", \"uart\"")),
        ErrorCase(
            name: "seven stop bits", text: revBText + "\n[uart]\nstop_bits = 7",
            error: .outOfRange(line: 12, key: "uart.stop_bits", value: "7", allowed: "it must be 1...2 (bits)")),
        ErrorCase(
            name: "misspelt section", text: revBText + "\n[uarts]\nbaud = 9600",
            error: .unknownSection(line: 11, name: "uarts", known: ["mcu", "transport", "uart"])),
        ErrorCase(
            name: "misspelt key", text: revBText.replacingOccurrences(of: "min_firmware", with: "min_firmwre"),
            error: .unknownKey(
                line: 6, section: "mcu", key: "min_firmwre",
                known: ["name", "description", "board_id", "capabilities", "min_firmware"])),
    ]

    @Test("each defect in an MCU profile gives its error", arguments: errorCases)
    func defect(_ testCase: ErrorCase) {
        #expect(throws: testCase.error) { try MCUBoardProfile.load(text: testCase.text) }
    }

    @Test("two profiles may not claim the same name, board_id or USB ids")
    func conflicts() throws {
        var twin = MCUBoardProfile.fairFuelRevB
        twin.name = "twin"
        twin.boardID = 0x0F0F
        #expect(throws: ProfileError.conflict(what: "USB id 1209:4646", first: "fairfuel-rev-b", second: "twin")) {
            try MCUBoardCatalog([.fairFuelRevB, twin])
        }
        twin.usbProductID = 0x46FE
        twin.boardID = 0x0101
        #expect(throws: ProfileError.conflict(what: "board_id 0x0101", first: "fairfuel-rev-b", second: "twin")) {
            try MCUBoardCatalog([.fairFuelRevB, twin])
        }
        #expect(throws: ProfileError.conflict(what: "the name 'fairfuel-uart'", first: "fairfuel-uart", second: "fairfuel-uart")) {
            try MCUBoardCatalog([.fairFuelUART, .fairFuelUART])
        }
    }

    @Test("the generic chip list covers the ids we promise never to match")
    func genericChips() {
        let promised: [(UInt16, UInt16)] = [
            (0x0403, 0x6001), (0x0403, 0x6015), (0x1A86, 0x7523), (0x10C4, 0xEA60), (0x067B, 0x2303),
            (0x0525, 0xA4A7), (0x2341, 0x0043), (0x2341, 0x8036),
        ]
        for (vendor, product) in promised {
            #expect(USBDeviceID(vendorID: vendor, productID: product).genericSerialChip != nil)
        }
        #expect(USBDeviceID.fairFuelMCURevB.genericSerialChip == nil)
        #expect(USBDeviceID.fairFuelDongleGadget.genericSerialChip == nil)
    }
}
