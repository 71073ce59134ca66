import FairFuelConfiguration
import FairFuelService
import Foundation
import TestSupport
import Testing

@Suite("udev rules")
struct UdevRulesTests {
    static var directory: String { PackagePaths.root + "/udev" }

    static func ruleFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".rules") }.sorted()
    }

    static func parse(_ file: String) throws -> UdevRulesFile {
        try UdevRulesFile(text: String(contentsOfFile: directory + "/" + file, encoding: .utf8))
    }

    /// USB ids that must never be matched (`nil` product: the vendor's whole range).
    /// Kept apart from `GenericUSBSerialChip.all` so a deletion there cannot slip by.
    static let forbiddenIDs: [(vendor: String, product: String?, name: String)] = [
        ("0403", "6001", "FTDI FT232R"), ("0403", "6015", "FTDI FT-X"), ("1a86", "7523", "CH340"),
        ("10c4", "ea60", "CP210x"), ("067b", "2303", "PL2303"), ("0525", "a4a7", "Linux gadget serial default"),
        ("2341", nil, "Arduino"),
    ]

    /// Every USB id our profiles own: MCU profiles' ids and the dongle gadget's.
    static func profileUSBIDs() throws -> Set<String> {
        var ids: Set<String> = []
        for file in try BoardFiles.mcuProfiles() {
            if let id = try MCUBoardProfile.load(path: BoardFiles.path(file)).usbDevice { ids.insert(id.description) }
        }
        for file in try BoardFiles.hostProfiles() {
            let pull = try BoardProfile.load(path: BoardFiles.path(file)).usbPull
            ids.insert(USBDeviceID(vendorID: pull.usbVendorID, productID: pull.usbProductID).description)
        }
        return ids
    }

    @Test("udev/ holds the rules files we ship")
    func shippedFiles() throws {
        #expect(try Self.ruleFiles() == ["70-fairfuel-laptop.rules", "99-fairfuel-mcu-uart.rules", "99-fairfuel-mcu.rules"])
    }

    @Test("every rules file parses as udev syntax")
    func syntax() throws {
        for file in try Self.ruleFiles() {
            let rules = try Self.parse(file)
            #expect(!rules.rules.isEmpty, "\(file) has rules")
        }
    }

    @Test("every rule matches tty devices by our USB ids or by a kernel name, and names its hardware")
    func everyRuleIsNarrow() throws {
        for file in try Self.ruleFiles() {
            for rule in try Self.parse(file).rules {
                let at = "\(file):\(rule.line)"
                #expect(rule.matches("SUBSYSTEM") == "tty", "\(at) matches tty devices only")
                let vendor = rule.matches("ATTRS", "idVendor")
                let product = rule.matches("ATTRS", "idProduct")
                #expect((vendor != nil) == (product != nil), "\(at) matches vendor and product together")
                #expect(vendor != nil || rule.matches("KERNEL") != nil, "\(at) has an idVendor/idProduct or KERNEL match")
                #expect(rule.comment.joined().count >= 20, "\(at) has a comment naming its hardware")
                for pair in rule.pairs where pair.op.isMatch {
                    #expect(!pair.value.contains("*") && !pair.value.contains("?") && !pair.value.contains("|"), "\(at): \(pair) is exact")
                    #expect(pair.op == .match, "\(at): \(pair) is a positive match")
                }
            }
        }
    }

    @Test("every USB id matched belongs to one of our profiles, and none is a generic chip's")
    func usbIDs() throws {
        let ours = try Self.profileUSBIDs()
        #expect(ours == ["1209:4646", "1209:4647"])
        var matched: Set<String> = []
        for file in try Self.ruleFiles() {
            for rule in try Self.parse(file).rules {
                guard let vendor = rule.matches("ATTRS", "idVendor"), let product = rule.matches("ATTRS", "idProduct") else {
                    continue
                }
                let id = "\(vendor):\(product)"
                matched.insert(id)
                #expect(ours.contains(id), "\(file):\(rule.line) matches \(id), which no profile in boards/ names")
                for forbidden in Self.forbiddenIDs
                where vendor.lowercased() == forbidden.vendor && (forbidden.product == nil || product.lowercased() == forbidden.product) {
                    Issue.record("\(file):\(rule.line) matches \(id), \(forbidden.name): a generic USB-serial id")
                }
                #expect(rule.values("ENV", "ID_MM_DEVICE_IGNORE", .assign) == ["1"], "\(file):\(rule.line) keeps ModemManager away")
            }
        }
        #expect(matched == ours, "each of our ids has a rule")
    }

    @Test("the MCU rules give the port the board profile expects, to the fairfuel group, and start the service")
    func mcuRules() throws {
        let profile = BoardProfile.piZero2W
        let symlink = try #require(profile.link.port.split(separator: "/").last.map(String.init))
        var mcuRules: [UdevRulesFile.Rule] = []
        for file in ["99-fairfuel-mcu.rules", "99-fairfuel-mcu-uart.rules"] {
            mcuRules += try Self.parse(file).rules.filter { !$0.values("SYMLINK").isEmpty }
        }
        #expect(mcuRules.count == 3)  // USB rev B, UART on the Pi Zero 2 W, UART on the Pi 4
        for rule in mcuRules {
            #expect(rule.values("SYMLINK", nil, .add) == [symlink])
            #expect(rule.values("GROUP") == [profile.control.group])
            #expect(rule.values("MODE") == ["0660"])
            #expect(rule.values("TAG", nil, .add) == ["systemd"])
            #expect(rule.values("ENV", "SYSTEMD_WANTS").contains("fairfuel.service"))
        }
        let uartRules = try Self.parse("99-fairfuel-mcu-uart.rules").rules
        #expect(uartRules.allSatisfy { $0.matches("KERNEL") == "ttyAMA0" && $0.matches("KERNELS") != nil })
    }

    @Test("the gadget port rule names the board profile's usb_pull port")
    func gadgetRule() throws {
        let port = BoardProfile.piZero2W.usbPull.port
        let rules = try Self.parse("99-fairfuel-mcu.rules").rules.filter { $0.matches("KERNEL") != nil }
        #expect(rules.count == 1)
        #expect(rules.first.map { "/dev/" + ($0.matches("KERNEL") ?? "") } == port)
        #expect(rules.first?.values("GROUP") == ["fairfuel"])
        #expect(rules.first?.values("MODE") == ["0660"])
    }

    @Test("uaccess tags sit in files that sort before systemd's 73-seat-late.rules")
    func uaccessOrder() throws {
        var found = 0
        for file in try Self.ruleFiles() {
            for rule in try Self.parse(file).rules where rule.values("TAG").contains("uaccess") {
                found += 1
                let number = Int(file.prefix { $0.isNumber }) ?? 99
                #expect(number < 73, "\(file): a uaccess tag after 73-seat-late.rules is never applied")
            }
        }
        #expect(found == 1)
    }

    @Test("Debian's gpsd hotplug rules do not list our ids", .enabled(if: UdevRulesTests.gpsdRulesPath != nil, "gpsd's 60-gpsd.rules is not installed"))
    func gpsdRules() throws {
        let path = try #require(Self.gpsdRulesPath)
        let gpsd = try UdevRulesFile(text: String(contentsOfFile: path, encoding: .utf8))
        #expect(gpsd.rules.count > 5, "our parser reads gpsd's real rules file")
        let theirs = Set(
            gpsd.rules.compactMap { rule -> String? in
                guard let vendor = rule.matches("ATTRS", "idVendor"), let product = rule.matches("ATTRS", "idProduct") else {
                    return nil
                }
                return "\(vendor):\(product)".lowercased()
            })
        #expect(!theirs.isEmpty)
        #expect(theirs.isDisjoint(with: try Self.profileUSBIDs()), "gpsd would grab our port")
    }

    static let gpsdRulesPath: String? = ["/lib/udev/rules.d/60-gpsd.rules", "/usr/lib/udev/rules.d/60-gpsd.rules"]
        .first { FileManager.default.fileExists(atPath: $0) }

    // MARK: - udevadm, when the machine has it

    static let udevadmPath: String? = ["/usr/bin/udevadm", "/bin/udevadm", "/sbin/udevadm"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("udevadm verify accepts the rules (when this udev has `verify`)")
    func udevadmVerify() throws {
        guard let udevadm = Self.udevadmPath else {
            try Test.cancel("udevadm is not installed (apt-get install udev); the rules were checked by the parser above")
        }
        let help = try ProgramRun.run(udevadm, ["verify", "--help"])
        guard help.status == 0 else {
            let version = try ProgramRun.run(udevadm, ["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            let reason =
                "udevadm \(version) has no `verify` subcommand (it came in systemd 254; Debian 12 ships 252): "
                + "the udevadm test run (udev/check-with-udevadm.sh) checks the rules instead"
            try Test.cancel(Comment(rawValue: reason))
        }
        let files = try Self.ruleFiles().map { Self.directory + "/" + $0 }
        let result = try ProgramRun.run(udevadm, ["verify", "--resolve-names=never"] + files)
        #expect(result.status == 0, "udevadm verify:\n\(result.output)")
    }

    @Test("udevadm test gives fake devices exactly what we mean (udev/check-with-udevadm.sh)")
    func udevadmTestRun() throws {
        let result = try ProgramRun.run("/bin/bash", [Self.directory + "/check-with-udevadm.sh"])
        if result.status == 77 {
            let reason = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            try Test.cancel(Comment(rawValue: "udev/check-with-udevadm.sh cannot run here: \(reason)"))
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("rules error"), "\(result.output)")
        let expected = [
            "mcu-rev-b links=/dev/fairfuel-mcu wants=fairfuel.service mm_ignore=1 group=990 mode=0660 uaccess=no",
            "dongle-gadget-from-laptop links=/dev/fairfuel-dongle wants= mm_ignore=1 group= mode= uaccess=yes",
            "ch340 links= wants= mm_ignore= group= mode= uaccess=no",
            "ftdi links= wants= mm_ignore= group= mode= uaccess=no",
            "linux-gadget-default links= wants= mm_ignore= group= mode= uaccess=no",
            "pi-zero-2w-uart links=/dev/fairfuel-mcu wants=fairfuel.service mm_ignore=1 group=990 mode=0660 uaccess=no",
            "pi-4-uart links=/dev/fairfuel-mcu wants=fairfuel.service mm_ignore=1 group=990 mode=0660 uaccess=no",
            "other-pl011 links= wants= mm_ignore= group= mode= uaccess=no",
            "dongle-gadget-port links= wants=fairfuel-usb-pull.service mm_ignore=1 group=990 mode=0660 uaccess=no",
        ]
        #expect(result.output.split(separator: "\n").map(String.init) == expected)
    }

    // MARK: - The parser itself

    struct BadLine: CustomTestStringConvertible, Sendable {
        var text: String
        var error: UdevRulesFile.SyntaxError
        var testDescription: String { text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ⏎ ") }
    }

    static let badLines: [BadLine] = [
        BadLine(text: #"SUBSYSTEM=="tty", SYMLNK+="x""#, error: .unknownKey(line: 1, key: "SYMLNK")),
        BadLine(text: #"SUBSYSTEM=="tty", ATTRS=="1209""#, error: .attributeMissing(line: 1, key: "ATTRS")),
        BadLine(text: #"SUBSYSTEM=="tty", ENV{}="1""#, error: .attributeMissing(line: 1, key: "ENV")),
        BadLine(text: #"KERNEL{x}=="tty""#, error: .attributeNotAllowed(line: 1, key: "KERNEL")),
        BadLine(text: #"SUBSYSTEM="tty""#, error: .badOperator(line: 1, key: "SUBSYSTEM", op: "=")),
        BadLine(text: #"GROUP=="fairfuel""#, error: .badOperator(line: 1, key: "GROUP", op: "==")),
        BadLine(text: #"SUBSYSTEM==="tty""#, error: .badOperator(line: 1, key: "SUBSYSTEM", op: "===")),
        BadLine(text: #"MODE+="0660""#, error: .badOperator(line: 1, key: "MODE", op: "+=")),
        BadLine(text: #"SUBSYSTEM==tty"#, error: .expectedQuote(line: 1)),
        BadLine(text: #"SUBSYSTEM=="tty"#, error: .unbalancedQuote(line: 1)),
        BadLine(text: #"ATTRS{idVendor=="1209""#, error: .unclosedAttribute(line: 1)),
        BadLine(text: #"SUBSYSTEM=="tty" KERNEL=="x""#, error: .expectedComma(line: 1)),
        BadLine(text: #"SUBSYSTEM=="tty","#, error: .emptyPair(line: 1)),
        BadLine(text: #"subsystem=="tty""#, error: .emptyPair(line: 1)),
        BadLine(text: "# ok\nSUBSYSTEM==\"tty\", \\\n  KERNEL==\"x\" \\", error: .continuationAtEnd(line: 2)),
        BadLine(text: "# ok\n\nSUBSYSTEM==\"tty\", \\\n  MODE==\"0660\"", error: .badOperator(line: 3, key: "MODE", op: "==")),
    ]

    @Test("the rules parser refuses each single defect", arguments: badLines)
    func parserDefects(_ bad: BadLine) {
        #expect(throws: bad.error) { try UdevRulesFile(text: bad.text) }
    }

    @Test("the rules parser reads continuations, comments and escaped quotes")
    func parserAccepts() throws {
        let file = try UdevRulesFile(
            text: """
                # first
                # hardware
                SUBSYSTEM=="tty", \\
                    ATTRS{idVendor}=="1209",ATTRS{idProduct} == "4646", ENV{X}="a \\"b\\"", RUN{builtin}+="x", TEST=="/y"

                # lonely comment

                KERNEL=="ttyGS0"
                """)
        #expect(file.rules.count == 2)
        #expect(file.rules[0].line == 3)
        #expect(file.rules[0].comment == ["first", "hardware"])
        #expect(file.rules[0].matches("ATTRS", "idProduct") == "4646")
        #expect(file.rules[0].values("ENV", "X") == ["a \"b\""])
        #expect(file.rules[1].line == 8)
        #expect(file.rules[1].comment == [])
    }
}
