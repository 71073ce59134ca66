import FairFuelLink

extension MCUBoardProfile: TOMLProfile {
    /// Reads an MCU profile from a parsed document; `[mcu]` and `[transport]` keys have no defaults.
    public static func load(table: TOMLTable) throws(ProfileError) -> MCUBoardProfile {
        var profile = MCUBoardProfile(
            name: "", description: "", boardID: 0, capabilities: [],
            minimumFirmware: FirmwareVersion(major: 0, minor: 0, patch: 0), transport: .usbCDC, usbDevice: nil)
        let lines = try schema.decode(table, into: &profile)
        try profile.checkTransport(lines: lines)
        return profile
    }

    /// Throws the first key out of range, as loading a rendering of this profile would.
    public func validate() throws(ProfileError) {
        _ = try Self.load(table: Self.schema.encode(self))
    }

    /// The whole profile as TOML, integers in decimal; loads back to an equal profile.
    public var tomlText: String {
        TOMLWriter.render(Self.schema.encode(self))
    }

    private func checkTransport(lines: [String: Int]) throws(ProfileError) {
        switch transport {
        case .usbCDC:
            guard let usbDevice else {
                throw .missingKey(section: "transport", key: usbVendorID == nil ? "usb_vendor_id" : "usb_product_id")
            }
            if let chip = usbDevice.genericSerialChip {
                throw .outOfRange(
                    line: lines["transport.usb_product_id"] ?? lines["transport.usb_vendor_id"],
                    key: "transport.usb_product_id", value: usbDevice.description,
                    allowed: "\(usbDevice) is \(chip.name), shared by countless devices; "
                        + "FairFuel matches only its own ids (pid.codes 1209:4646 for the MCU rev B)")
            }
        case .uart:
            for key in ["usb_vendor_id", "usb_product_id"] {
                if let line = lines["transport." + key] {
                    throw .outOfRange(
                        line: line, key: "transport." + key,
                        value: String((key == "usb_vendor_id" ? usbVendorID : usbProductID) ?? 0),
                        allowed: "a UART-wired MCU has no USB ids; remove the key or set kind = \"usb_cdc\"")
                }
            }
        }
    }

    /// Capability names as HELLO's bits are named, bit 0 first.
    static let capabilityNames: [(String, MCUCapabilities)] = (0..<16).compactMap { bit in
        let flag = MCUCapabilities(rawValue: 1 << bit)
        return flag.names.first.map { ($0, flag) }
    }

    static let schema = ProfileSchema<MCUBoardProfile>(sections: [
        .init(
            "mcu",
            [
                .string("name", \.name, .profileName, required: true),
                .string("description", \.description, .nonEmpty, required: true),
                .integer("board_id", \.boardID, 0...0xFFFF, "HELLO's board_id, written like 0x0101", required: true),
                capabilitiesField,
                firmwareField,
            ]),
        .init(
            "transport",
            [
                .choice("kind", \.transport, required: true),
                .optionalInteger("usb_vendor_id", \.usbVendorID, 1...0xFFFF, "a USB vendor id, written like 0x1209"),
                .optionalInteger(
                    "usb_product_id", \.usbProductID, 0...0xFFFF, "a USB product id, written like 0x4646"),
            ]),
        .init(
            "uart",
            [
                .integer(
                    "baud", \.uart.baud, 9600...4_000_000, "a standard rate such as 115200",
                    check: { BoardProfile.standardBaudRates.contains(Int($0)) }),
                .integer("data_bits", \.uart.dataBits, 5...8, "bits"),
                .choice("parity", \.uart.parity),
                .integer("stop_bits", \.uart.stopBits, 1...2, "bits"),
            ]),
    ])

    private static let capabilitiesField = ProfileField<MCUBoardProfile>(
        key: "capabilities", isRequired: true,
        decode: { profile, value, origin throws(ProfileError) in
            guard let elements = value.arrayValue else {
                throw .wrongType(line: origin.line, key: origin.name, expected: "array", found: value.typeName)
            }
            var capabilities: MCUCapabilities = []
            for element in elements {
                guard let name = element.stringValue else {
                    throw .wrongType(
                        line: origin.line, key: origin.name, expected: "array of strings",
                        found: "array of \(element.typeName)s")
                }
                guard let flag = capabilityNames.first(where: { $0.0 == name })?.1 else {
                    let known = capabilityNames.map { "\"\($0.0)\"" }.joined(separator: ", ")
                    throw .outOfRange(
                        line: origin.fileLine, key: origin.name, value: TOMLWriter.quoted(name),
                        allowed: "each capability must be one of \(known)")
                }
                capabilities.insert(flag)
            }
            profile.capabilities = capabilities
        },
        encode: { profile in
            .array(capabilityNames.filter { profile.capabilities.contains($0.1) }.map { .string($0.0) })
        })

    private static let firmwareField = ProfileField<MCUBoardProfile>(
        key: "min_firmware", isRequired: true,
        decode: { profile, value, origin throws(ProfileError) in
            guard let text = value.stringValue else {
                throw .wrongType(line: origin.line, key: origin.name, expected: "string", found: value.typeName)
            }
            guard let version = FirmwareVersion(text) else {
                throw .outOfRange(
                    line: origin.fileLine, key: origin.name, value: TOMLWriter.quoted(text),
                    allowed: "it must be major.minor.patch, each 0...255, like \"1.4.0\"")
            }
            profile.minimumFirmware = version
        },
        encode: { .string($0.minimumFirmware.description) })
}
