import FairFuelConfiguration
import FairFuelParsers
import Foundation
import Testing
import TestSupport

@Suite("Board profiles")
struct BoardProfileTests {
    @Test("boards/ holds the host profiles we ship")
    func shippedProfiles() throws {
        #expect(try BoardFiles.hostProfiles() == ["pi-4.toml", "pi-zero-2w.toml", "x86-64-dev.toml"])
    }

    @Test("every host profile in boards/ loads, is named after its file and names a known MCU board")
    func everyFileLoads() throws {
        for file in try BoardFiles.hostProfiles() {
            let profile = try BoardProfile.load(text: BoardFiles.text(file))
            #expect(profile.board.name + ".toml" == file)
            let mcu = try #require(MCUBoardCatalog.builtIn.profile(named: profile.link.mcuBoard), "\(file)")
            #expect(profile.link.baud == mcu.uart.baud, "\(file): link.baud must match \(mcu.name)'s UART")
            #expect(try BoardFiles.mcuProfiles().contains(MCUBoardProfile.fileName(forName: mcu.name)))
        }
    }

    @Test("pi-zero-2w.toml equals the compiled-in default")
    func defaultMatchesFile() throws {
        let fromFile = try BoardProfile.load(text: BoardFiles.text("pi-zero-2w.toml"))
        #expect(fromFile == BoardProfile.piZero2W)
    }

    @Test("each shipped host profile sets every key, so none silently takes a default", arguments: [
        "pi-zero-2w.toml", "pi-4.toml", "x86-64-dev.toml",
    ])
    func filesSetEveryKey(file: String) throws {
        let table = try TOMLParser.parse(try BoardFiles.text(file))
        #expect(table.keys == BoardProfile.sectionNames + ["web"])
        // The app behind the socket's proxy must exit when idle: nothing else stops it.
        let web = try #require(table["web"]?.tableValue, "[web] in \(file)").keys
        #expect(web == BoardProfile.keys(of: "web").filter { !$0.hasPrefix("tls_") }, "[web] in \(file): every key but the optional TLS files")
        #expect(try BoardProfile.load(text: BoardFiles.text(file)).web?.idleExitSeconds ?? 0 > 0, "\(file): the web app exits when idle")
        for section in BoardProfile.sectionNames {
            let keys = try #require(table[section]?.tableValue, "[\(section)] in \(file)").keys
            #expect(keys == BoardProfile.keys(of: section), "[\(section)] in \(file)")
        }
    }

    @Test("each value in a shipped profile has a comment somewhere in its section or on its line")
    func filesAreCommented() throws {
        for file in try BoardFiles.hostProfiles() {
            let text = try BoardFiles.text(file)
            #expect(text.hasPrefix("# FairFuel board profile: "), "\(file) opens with what it is")
            let comments = text.split(separator: "\n").filter { $0.contains("#") }.count
            #expect(comments >= 10, "\(file) explains its sizing")
        }
    }

    @Test("the compiled-in default is valid and renders to TOML that loads back equal")
    func defaultRoundTrip() throws {
        try BoardProfile.piZero2W.validate()
        let text = BoardProfile.piZero2W.tomlText
        #expect(try BoardProfile.load(text: text) == BoardProfile.piZero2W)
        for file in try BoardFiles.hostProfiles() {
            let profile = try BoardProfile.load(text: BoardFiles.text(file))
            #expect(try BoardProfile.load(text: profile.tomlText) == profile, "\(file)")
        }
    }

    @Test("keys and sections a file leaves out keep the Pi Zero 2 W values")
    func missingKeysFallBack() throws {
        // [web] is optional as a whole: a file without it has none, whatever pi-zero-2w.toml says.
        var withoutWeb = BoardProfile.piZero2W
        withoutWeb.web = nil
        #expect(try BoardProfile.load(text: "") == withoutWeb)
        #expect(try BoardProfile.load(text: "# nothing but a comment\n") == withoutWeb)
        let profile = try BoardProfile.load(text: "[link]\nbaud = 230400\n\n[store]\ntrip_point_flush_seconds = 5\n")
        var expected = withoutWeb
        expected.link.baud = 230_400
        expected.store.tripPointFlushSeconds = 5
        #expect(profile == expected)
    }

    @Test("store.page_cache_kib is read in KiB; the shipped profiles size it from their RAM")
    func pageCacheKiB() throws {
        #expect(try BoardProfile.load(text: "[store]\npage_cache_kib = 1_024\n").store.pageCacheKiB == 1024)
        #expect(try BoardProfile.load(text: "[store]\npage_cache_kib = 64\n").store.pageCacheKiB == 64)
        #expect(BoardProfile.piZero2W.store.pageCacheKiB == 256)
        #expect(try BoardProfile.load(text: BoardFiles.text("pi-4.toml")).store.pageCacheKiB == 2048)
    }

    @Test("values are typed from TOML: hex ids, octal modes, underscores, booleans and choices")
    func typedValues() throws {
        let profile = try BoardProfile.load(
            text: """
                [gnss]
                source = "gpsd"
                gpsd_host = "::1"
                allow_missing_checksum = true
                [control]
                socket_mode = 0o640
                [usb_pull]
                enabled = false
                usb_product_id = 0x4647
                [board]
                storage = "emmc"
                storage_bytes = 32_000_000_000
                """)
        #expect(profile.gnss.source == .gpsd)
        #expect(profile.gnss.gpsdHost == "::1")
        #expect(profile.gnss.allowMissingChecksum)
        #expect(profile.control.socketMode == 0o640)
        #expect(!profile.usbPull.enabled)
        #expect(profile.usbPull.usbProductID == 0x4647)
        #expect(profile.board.storage == .emmc)
        #expect(profile.board.storageBytes == 32_000_000_000)
    }

    // MARK: - Unknown sections and keys

    @Test("a misspelt key is refused with its line, its section and the likely key")
    func unknownKey() throws {
        let text = "[board]\nram_mb = 512\n\n[link]\nbaud = 115200\nrecieve_ring_bytes = 4096\n"
        let error = try #require(throws: ProfileError.self) { try BoardProfile.load(text: text) }
        #expect(
            error
                == .unknownKey(line: 6, section: "link", key: "recieve_ring_bytes", known: BoardProfile.keys(of: "link")))
        #expect(error.line == 6)
        #expect(
            error.description.hasPrefix(
                "line 6: unknown key 'recieve_ring_bytes' in [link] (did you mean 'receive_ring_bytes'?); the keys of [link] are port, baud, receive_ring_bytes"
            ))
    }

    @Test("an unknown key is refused before any value is checked")
    func unknownKeyFirst() throws {
        let text = "[link]\nbaud = 1\n[store]\nflush = 3\n"
        let error = try #require(throws: ProfileError.self) { try BoardProfile.load(text: text) }
        guard case .unknownKey(4, "store", "flush", _) = error else {
            Issue.record("expected the unknown key on line 4, got \(error)")
            return
        }
    }

    @Test("a key unlike any other gets no suggestion")
    func noSuggestion() throws {
        let error = try #require(throws: ProfileError.self) {
            try BoardProfile.load(text: "[link]\ncompletely_different = 1")
        }
        #expect(!error.description.contains("did you mean"))
    }

    @Test("a misspelt section is refused with its line and the likely section")
    func unknownSection() throws {
        let error = try #require(throws: ProfileError.self) {
            try BoardProfile.load(text: "[board]\nram_mb = 512\n[lnik]\nbaud = 115200\n")
        }
        #expect(error == .unknownSection(line: 3, name: "lnik", known: BoardProfile.sectionNames))
        #expect(
            error.description
                == "line 3: unknown section [lnik] (did you mean [link]?); the sections are [board], [link], [gnss], [ble], [session], [store], [control], [usb_pull], [service]"
        )
    }

    @Test("sub-sections, arrays of tables and keys above the first section are refused")
    func structureErrors() throws {
        #expect(throws: ProfileError.unknownSection(line: 2, name: "link.usb", known: BoardProfile.sectionNames)) {
            try BoardProfile.load(text: "[link]\n[link.usb]\nvendor = 1\n")
        }
        #expect(
            throws: ProfileError.wrongType(
                line: 1, key: "link", expected: "section [link]", found: "array of tables [[link]]")
        ) {
            try BoardProfile.load(text: "[[link]]\nbaud = 115200\n")
        }
        #expect(throws: ProfileError.unknownSection(line: 1, name: "ports", known: BoardProfile.sectionNames)) {
            try BoardProfile.load(text: "[[ports]]\n")
        }
        let error = try #require(throws: ProfileError.self) { try BoardProfile.load(text: "baud = 115200\n[link]\n") }
        #expect(error == .unknownKey(line: 1, section: "", key: "baud", known: BoardProfile.sectionNames))
        #expect(error.description.hasPrefix("line 1: key 'baud' is above the first [section]"))
    }

    @Test("syntax errors come through with their line")
    func syntaxError() throws {
        let error = try #require(throws: ProfileError.self) {
            try BoardProfile.load(text: "[link]\nport = \"/dev/fairfuel-mcu\nbaud = 115200\n")
        }
        #expect(error == .syntax(.unterminatedString(line: 2)))
        #expect(error.line == 2)
    }

    @Test("wrong value types name the key and both types")
    func wrongTypes() throws {
        let error = try #require(throws: ProfileError.self) { try BoardProfile.load(text: "[link]\nbaud = \"115200\"") }
        #expect(error == .wrongType(line: 2, key: "link.baud", expected: "integer", found: "string"))
        #expect(error.description == "line 2: link.baud must be an integer, not a string")
        #expect(throws: ProfileError.wrongType(line: 2, key: "usb_pull.enabled", expected: "boolean", found: "integer")) {
            try BoardProfile.load(text: "[usb_pull]\nenabled = 1")
        }
        #expect(throws: ProfileError.wrongType(line: 2, key: "store.path", expected: "string", found: "array")) {
            try BoardProfile.load(text: "[store]\npath = [\"/a\"]")
        }
        #expect(throws: ProfileError.wrongType(line: 2, key: "ble.rssi_window_samples", expected: "integer", found: "float")) {
            try BoardProfile.load(text: "[ble]\nrssi_window_samples = 8.0")
        }
        #expect(throws: ProfileError.wrongType(line: 2, key: "store.page_cache_kib", expected: "integer", found: "string")) {
            try BoardProfile.load(text: "[store]\npage_cache_kib = \"256K\"")
        }
    }

    // MARK: - Range validation

    struct RangeCase: CustomTestStringConvertible, Sendable {
        var text: String
        var key: String
        var line: Int?
        /// A fragment the message must hold.
        var says: String
        var testDescription: String { "\(key): \(text.split(separator: "\n").last ?? "")" }
    }

    static let rangeCases: [RangeCase] = [
        RangeCase(text: "[link]\nreceive_ring_bytes = 258", key: "link.receive_ring_bytes", line: 2, says: "259...1048576"),
        RangeCase(text: "[link]\nreceive_ring_bytes = 0", key: "link.receive_ring_bytes", line: 2, says: "one encoded frame"),
        RangeCase(
            text: "[link]\nbaud = 921600\nreceive_ring_bytes = 4096", key: "link.receive_ring_bytes", line: 3,
            says: "at least 9216"),
        RangeCase(text: "[link]\nbaud = 115201", key: "link.baud", line: 2, says: "a standard rate"),
        RangeCase(text: "[link]\ntransmit_queue_frames = 0", key: "link.transmit_queue_frames", line: 2, says: "1...256"),
        RangeCase(
            text: "[link]\nreconnect_backoff_max_ms = 100", key: "link.reconnect_backoff_max_ms", line: 2,
            says: "at least link.reconnect_backoff_min_ms (250)"),
        RangeCase(text: "[link]\nport = \"ttyACM0\"", key: "link.port", line: 2, says: "absolute path"),
        RangeCase(text: "[link]\nmcu_board = \"Rev B\"", key: "link.mcu_board", line: 2, says: "lower-case"),
        RangeCase(text: "[gnss]\nsource = \"gps\"", key: "gnss.source", line: 2, says: "one of \"mcu\", \"gpsd\""),
        RangeCase(text: "[gnss]\ngpsd_port = 0", key: "gnss.gpsd_port", line: 2, says: "1...65535"),
        RangeCase(text: "[gnss]\ngpsd_port = 70000", key: "gnss.gpsd_port", line: 2, says: "1...65535"),
        RangeCase(text: "[gnss]\ngpsd_host = \"\"", key: "gnss.gpsd_host", line: 2, says: "host name"),
        RangeCase(text: "[gnss]\nmax_epoch_hz = 0", key: "gnss.max_epoch_hz", line: 2, says: "1...50"),
        RangeCase(text: "[ble]\nbeacons_in_range_capacity = 0", key: "ble.beacons_in_range_capacity", line: 2, says: "1...4096"),
        RangeCase(text: "[session]\nevent_queue_capacity = 8", key: "session.event_queue_capacity", line: 2, says: "16...65536"),
        RangeCase(text: "[store]\ntrip_point_flush_points = 0", key: "store.trip_point_flush_points", line: 2, says: "1...100000"),
        RangeCase(text: "[store]\ntrip_point_flush_seconds = 0", key: "store.trip_point_flush_seconds", line: 2, says: "1...3600"),
        RangeCase(text: "[store]\ndisk_budget_bytes = 0", key: "store.disk_budget_bytes", line: 2, says: "16777216"),
        RangeCase(text: "[store]\ndisk_budget_bytes = -1", key: "store.disk_budget_bytes", line: 2, says: "16777216"),
        RangeCase(
            text: "[store]\ndisk_budget_bytes = 9_000_000_000", key: "store.disk_budget_bytes", line: 2,
            says: "at most half of board.storage_bytes (8000000000)"),
        RangeCase(
            text: "[board]\nstorage_bytes = 1_000_000_000", key: "store.disk_budget_bytes", line: 2,
            says: "at most half of board.storage_bytes"),
        RangeCase(
            text: "[store]\ntrip_point_keep_hz = 20", key: "store.trip_point_keep_hz", line: 2,
            says: "not be above gnss.max_epoch_hz (10)"),
        RangeCase(
            text: "[gnss]\nmax_epoch_hz = 1\n[store]\ntrip_point_keep_hz = 2", key: "store.trip_point_keep_hz", line: 4,
            says: "gnss.max_epoch_hz (1)"),
        RangeCase(text: "[store]\ntrip_point_max_age_days = 0", key: "store.trip_point_max_age_days", line: 2, says: "days"),
        RangeCase(text: "[store]\nevent_log_max_rows = 10", key: "store.event_log_max_rows", line: 2, says: "100...10000000"),
        RangeCase(text: "[store]\npath = \"fairfuel.db\"", key: "store.path", line: 2, says: "absolute path"),
        RangeCase(text: "[store]\npage_cache_kib = 32", key: "store.page_cache_kib", line: 2, says: "64...1048576"),
        RangeCase(text: "[store]\npage_cache_kib = -256", key: "store.page_cache_kib", line: 2, says: "64...1048576"),
        RangeCase(
            text: "[store]\npage_cache_kib = 8192", key: "store.page_cache_kib", line: 2,
            says: "at most a quarter of service.memory_target_bytes (4096 KiB)"),
        RangeCase(
            text: "[service]\nmemory_target_bytes = 4_194_304\n[store]\npage_cache_kib = 2048", key: "store.page_cache_kib",
            line: 4, says: "(1024 KiB)"),
        RangeCase(text: "[control]\ngroup = \"Fair Fuel\"", key: "control.group", line: 2, says: "group name"),
        RangeCase(text: "[control]\nsocket_mode = 0o1777", key: "control.socket_mode", line: 2, says: "0o660"),
        RangeCase(text: "[control]\nmax_clients = 1", key: "control.max_clients", line: 2, says: "2...64"),
        RangeCase(
            text: "[usb_pull]\nusb_vendor_id = 0x0525\nusb_product_id = 0xa4a7", key: "usb_pull.usb_product_id", line: 3,
            says: "0525:a4a7 is the Linux gadget serial default"),
        RangeCase(text: "[usb_pull]\nusb_product_id = 0x1_0000", key: "usb_pull.usb_product_id", line: 2, says: "0...65535"),
        RangeCase(text: "[usb_pull]\nport = \"\"", key: "usb_pull.port", line: 2, says: "absolute path"),
        RangeCase(text: "[service]\nwatchdog_seconds = 1", key: "service.watchdog_seconds", line: 2, says: "0 turns it off"),
        RangeCase(
            text: "[service]\nmemory_target_bytes = 1_000_000", key: "service.memory_target_bytes", line: 2,
            says: "4194304...2147483647"),
        RangeCase(
            text: "[board]\nram_mb = 128\n[service]\nmemory_target_bytes = 200_000_000", key: "service.memory_target_bytes",
            line: 4, says: "below board.ram_mb (128 MiB)"),
        RangeCase(text: "[board]\nname = \"Pi Zero\"", key: "board.name", line: 2, says: "like the file name"),
        RangeCase(text: "[board]\nstorage = \"floppy\"", key: "board.storage", line: 2, says: "\"sd\", \"emmc\", \"ssd\""),
    ]

    @Test("out-of-range values are refused with their key, line and the allowed range", arguments: rangeCases)
    func outOfRange(_ testCase: RangeCase) throws {
        let error = try #require(throws: ProfileError.self) { try BoardProfile.load(text: testCase.text) }
        guard case let .outOfRange(line, key, _, allowed) = error else {
            Issue.record("expected outOfRange, got \(error)")
            return
        }
        #expect(key == testCase.key)
        #expect(line == testCase.line)
        #expect(allowed.contains(testCase.says), "\(error)")
        #expect(error.description.hasPrefix(testCase.line.map { "line \($0): " } ?? testCase.key))
    }

    @Test("bounds themselves are accepted")
    func boundsAccepted() throws {
        let profile = try BoardProfile.load(
            text: """
                [link]
                receive_ring_bytes = 1152   # 115200 / 100: exactly 100 ms
                transmit_queue_frames = 1
                reconnect_backoff_min_ms = 10_000
                reconnect_backoff_max_ms = 10_000
                [store]
                trip_point_flush_points = 1
                disk_budget_bytes = 8_000_000_000
                trip_point_keep_hz = 10
                [service]
                watchdog_seconds = 0
                """)
        #expect(profile.link.receiveRingBytes == 1152)
        #expect(profile.store.diskBudgetBytes == 8_000_000_000)
        #expect(profile.service.watchdogSeconds == 0)
    }

    @Test("validate() refuses a bad value set in code, without a line number")
    func validateInCode() throws {
        var profile = BoardProfile.piZero2W
        profile.link.receiveRingBytes = 100
        let error = try #require(throws: ProfileError.self) { try profile.validate() }
        #expect(error.line == nil)
        #expect(error.description.hasPrefix("link.receive_ring_bytes = 100 is not allowed: it must be 259...1048576"))
    }

    @Test("suggestions: close typos get one, the exact key and far-off words do not")
    func suggestions() {
        func hint(_ key: String, _ known: [String]) -> Bool {
            ProfileError.unknownKey(line: 1, section: "s", key: key, known: known).description.contains("did you mean")
        }
        #expect(hint("buad", ["baud"]))
        #expect(hint("max_epoc_hz", ["max_epoch_hz"]))
        #expect(hint("disk_budget", ["disk_budget_bytes"]) == false)  // six letters short is no typo
        #expect(!hint("baud", ["baud"]))
        #expect(!hint("colour", ["port", "baud"]))
    }
}
