extension BoardProfile: TOMLProfile {
    /// Where an installed dongle keeps its profile: the package's conffile, a copy of `boards/pi-zero-2w.toml`.
    public static let installedPath = "/etc/fairfuel/fairfuel.toml"

    /// Line rates a Linux tty can be set to without a custom divisor.
    public static let standardBaudRates: [Int] = [
        9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 500_000, 576_000, 921_600, 1_000_000,
        1_500_000, 2_000_000, 3_000_000, 4_000_000,
    ]

    /// Reads a profile from a parsed document; keys and sections it leaves out keep their `piZero2W` values.
    public static func load(table: TOMLTable) throws(ProfileError) -> BoardProfile {
        var profile = BoardProfile.piZero2W
        // [uplink] and [web] are optional as a whole: absent, no uplink and the web app's built-in
        // defaults (no idle exit), not the Pi Zero 2 W file's values.
        profile.web = nil
        var sections = TOMLTable(line: table.line)
        for entry in table.entries where entry.key != Self.uplinkSection && entry.key != Web.section {
            sections.insert(entry.key, entry.value, line: entry.line)
        }
        let lines = try schema.decode(sections, into: &profile)
        try profile.checkAcrossSections(lines: lines)
        if let entry = table.entries.first(where: { $0.key == Self.uplinkSection }) {
            guard let uplink = entry.value.tableValue else {
                throw .wrongType(line: entry.line, key: Self.uplinkSection, expected: "section [uplink]", found: entry.value.typeName)
            }
            profile.uplink = try Uplink.load(table: uplink, line: entry.line)
        }
        if let entry = table.entries.first(where: { $0.key == Web.section }) {
            guard let web = entry.value.tableValue else {
                throw .wrongType(line: entry.line, key: Web.section, expected: "section [web]", found: entry.value.typeName)
            }
            profile.web = try Web.load(table: web, line: entry.line)
        }
        return profile
    }

    /// Throws the first key out of range, as loading a rendering of this profile would.
    public func validate() throws(ProfileError) {
        _ = try Self.load(table: encodedTable)
    }

    /// The optional section, read apart from the others.
    static let uplinkSection = "uplink"

    /// Every section, `[uplink]` last when there is one.
    private var encodedTable: TOMLTable {
        var root = Self.schema.encode(self)
        if let uplink, let table = Uplink.schema.encode(uplink)[Self.uplinkSection] { root.insert(Self.uplinkSection, table) }
        if let web, let table = Web.schema.encode(web)[Web.section] { root.insert(Web.section, table) }
        return root
    }

    /// The whole profile as TOML, every key set, integers in decimal; loads back to an equal profile.
    public var tomlText: String {
        TOMLWriter.render(encodedTable)
    }

    /// The section names every profile sets, in file order (`[uplink]`, optional, is not one).
    public static var sectionNames: [String] { schema.sectionNames }

    /// The keys of `section`, in file order (`uplink` included); empty for an unknown section.
    public static func keys(of section: String) -> [String] {
        if section == uplinkSection { return Uplink.schema.sections[0].fields.map(\.key) }
        if section == Web.section { return Web.schema.sections[0].fields.map(\.key) }
        return schema.sections.first { $0.name == section }?.fields.map(\.key) ?? []
    }

    /// The values an integer key of `section` allows in a profile, so that a command-line
    /// override of the same setting checks the same range; nil for an unknown or non-integer key.
    public static func allowedRange(section: String, key: String) -> ClosedRange<Int64>? {
        schema.sections.first { $0.name == section }?.fields.first { $0.key == key }?.integerRange
    }

    /// Checks that tie two keys together; an error points at the first of them the file sets.
    private func checkAcrossSections(lines: [String: Int]) throws(ProfileError) {
        func fail(_ key: String, _ other: String, _ value: String, _ allowed: String) -> ProfileError {
            .outOfRange(line: lines[key] ?? lines[other], key: key, value: value, allowed: allowed)
        }
        if link.reconnectBackoffMaxMs < link.reconnectBackoffMinMs {
            throw fail(
                "link.reconnect_backoff_max_ms", "link.reconnect_backoff_min_ms", String(link.reconnectBackoffMaxMs),
                "it must be at least link.reconnect_backoff_min_ms (\(link.reconnectBackoffMinMs))")
        }
        let ringFloor = max(259, link.baud / 100)
        if link.receiveRingBytes < ringFloor {
            throw fail(
                "link.receive_ring_bytes", "link.baud", String(link.receiveRingBytes),
                "it must hold 100 ms at link.baud \(link.baud) (baud / 100 = \(link.baud / 100) bytes) "
                    + "and one whole frame (259 bytes): at least \(ringFloor)")
        }
        if store.tripPointKeepHz > gnss.maxEpochHz {
            throw fail(
                "store.trip_point_keep_hz", "gnss.max_epoch_hz", String(store.tripPointKeepHz),
                "it must not be above gnss.max_epoch_hz (\(gnss.maxEpochHz))")
        }
        if store.diskBudgetBytes > board.storageBytes / 2 {
            throw fail(
                "store.disk_budget_bytes", "board.storage_bytes", String(store.diskBudgetBytes),
                "it must be at most half of board.storage_bytes (\(board.storageBytes / 2)); "
                    + "the system, its logs and SQLite's temporary files need the rest")
        }
        if Int64(store.pageCacheKiB) << 10 > Int64(service.memoryTargetBytes) / 4 {
            throw fail(
                "store.page_cache_kib", "service.memory_target_bytes", String(store.pageCacheKiB),
                "it must be at most a quarter of service.memory_target_bytes (\(service.memoryTargetBytes / 4 / 1024) KiB)")
        }
        if Int64(service.memoryTargetBytes) >= Int64(board.ramMB) << 20 {
            throw fail(
                "service.memory_target_bytes", "board.ram_mb", String(service.memoryTargetBytes),
                "it must be below board.ram_mb (\(board.ramMB) MiB)")
        }
        let gadget = USBDeviceID(vendorID: usbPull.usbVendorID, productID: usbPull.usbProductID)
        if let chip = gadget.genericSerialChip {
            throw fail(
                "usb_pull.usb_product_id", "usb_pull.usb_vendor_id", gadget.description,
                "\(gadget) is \(chip.name), shared by countless devices; use FairFuel's own 1209:4647")
        }
    }

    static let schema = ProfileSchema<BoardProfile>(sections: [
        .init(
            "board",
            [
                .string("name", \.board.name, .profileName),
                .string("description", \.board.description, .nonEmpty),
                .integer("ram_mb", \.board.ramMB, 128...1_048_576, "MiB"),
                .choice("storage", \.board.storage),
                .integer("storage_bytes", \.board.storageBytes, 268_435_456...(1 << 50), "bytes"),
            ]),
        .init(
            "link",
            [
                .string("port", \.link.port, .absolutePath),
                .integer(
                    "baud", \.link.baud, 9600...4_000_000, "a standard rate such as 115200",
                    check: { standardBaudRates.contains(Int($0)) }),
                .integer(
                    "receive_ring_bytes", \.link.receiveRingBytes, 259...1_048_576,
                    "one encoded frame plus its delimiter at least"),
                .integer("transmit_queue_frames", \.link.transmitQueueFrames, 1...256, "frames"),
                .integer("reconnect_backoff_min_ms", \.link.reconnectBackoffMinMs, 10...60_000, "milliseconds"),
                .integer("reconnect_backoff_max_ms", \.link.reconnectBackoffMaxMs, 10...600_000, "milliseconds"),
                .integer(
                    "mcu_silence_limit_ms", \.link.mcuSilenceLimitMs, 3_000...600_000,
                    "milliseconds: three HEARTBEAT periods (1 s each) at least"),
                .string("mcu_board", \.link.mcuBoard, .profileName),
            ]),
        .init(
            "gnss",
            [
                .choice("source", \.gnss.source),
                .string("gpsd_host", \.gnss.gpsdHost, .host),
                .integer("gpsd_port", \.gnss.gpsdPort, 1...65535),
                .boolean("allow_missing_checksum", \.gnss.allowMissingChecksum),
                .integer("max_epoch_hz", \.gnss.maxEpochHz, 1...50, "fixes per second"),
                .integer(
                    "max_packet_bytes", \.gnss.maxPacketBytes, 256...65_536,
                    "bytes: a UBX NAV-PVT is 100, an RTCM 3 message up to 1 029, a UBX RXM-RAWX for 100 signals 3 300"),
            ]),
        .init(
            "ble",
            [
                .integer("beacons_in_range_capacity", \.ble.beaconsInRangeCapacity, 1...4096, "beacons"),
                .integer("rssi_window_samples", \.ble.rssiWindowSamples, 1...256, "samples per beacon"),
            ]),
        .init(
            "session",
            [
                .integer("event_queue_capacity", \.session.eventQueueCapacity, 16...65_536, "events"),
                .integer("same_trip_max_stop_s", \.session.sameTripMaxStopSeconds, 0...86_400, "seconds"),
                .integer("new_trip_max_stop_s", \.session.newTripMaxStopSeconds, 0...604_800, "seconds"),
                .integer("continuity_decision_s", \.session.continuityDecisionSeconds, 1...600, "seconds"),
            ]),
        .init(
            "store",
            [
                .string("path", \.store.path, .absolutePath),
                .integer("trip_point_flush_seconds", \.store.tripPointFlushSeconds, 1...3600, "seconds"),
                .integer("trip_point_flush_points", \.store.tripPointFlushPoints, 1...100_000, "points"),
                .integer("trip_point_keep_hz", \.store.tripPointKeepHz, 1...50, "points per second"),
                .integer("disk_budget_bytes", \.store.diskBudgetBytes, 16_777_216...(1 << 50), "bytes"),
                .integer("trip_point_max_age_days", \.store.tripPointMaxAgeDays, 1...36_500, "days"),
                .integer("event_log_max_rows", \.store.eventLogMaxRows, 100...10_000_000, "rows"),
                .integer("page_cache_kib", \.store.pageCacheKiB, 64...1_048_576, "KiB"),
                .integer("wal_limit_bytes", \.store.walLimitBytes, 65_536...1_073_741_824, "bytes"),
                .integer("disk_reserve_bytes", \.store.diskReserveBytes, 0...1_073_741_824, "bytes"),
                .integer("pending_records_max", \.store.pendingRecordsMax, 8...65_536, "records"),
            ]),
        .init(
            "control",
            [
                .string("socket_path", \.control.socketPath, .absolutePath),
                .string("group", \.control.group, .accountName),
                .integer("socket_mode", \.control.socketMode, 0...0o777, "permission bits, written like 0o660"),
                .integer("max_clients", \.control.maxClients, 2...64, "clients"),
            ]),
        .init(
            "usb_pull",
            [
                .boolean("enabled", \.usbPull.enabled),
                .string("port", \.usbPull.port, .absolutePath),
                .integer("usb_vendor_id", \.usbPull.usbVendorID, 1...0xFFFF, "a USB vendor id, written like 0x1209"),
                .integer("usb_product_id", \.usbPull.usbProductID, 0...0xFFFF, "a USB product id, written like 0x4647"),
            ]),
        .init(
            "service",
            [
                .integer(
                    "watchdog_seconds", \.service.watchdogSeconds, 0...3600, "0 turns it off, else at least 2",
                    check: { $0 == 0 || $0 >= 2 }),
                .integer("memory_target_bytes", \.service.memoryTargetBytes, 4_194_304...2_147_483_647, "bytes"),
            ]),
    ])
}
