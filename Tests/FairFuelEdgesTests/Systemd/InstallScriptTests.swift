import Foundation
import Testing

@Suite struct InstallScriptTests {
    static let script = ScriptRunner.root + "/scripts/install.sh"

    /// A temp staging directory and a stand-in binary.
    static func stage() throws -> (directory: String, binary: String) {
        let directory = NSTemporaryDirectory() + "fairfuel-install-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory + "/src", withIntermediateDirectories: true)
        let binary = directory + "/src/fairfuel"
        try "#!/bin/sh\necho fake fairfuel\n".write(toFile: binary, atomically: true, encoding: .utf8)
        chmod(binary, 0o755)
        return (directory, binary)
    }

    static func mode(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return (attributes[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func stagesEveryFileWithItsMode() throws {
        let (directory, binary) = try Self.stage()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = directory + "/root"
        let result = try ScriptRunner.run(Self.script, ["--destdir", root, "--no-build", "--no-system", "--binary", binary])
        #expect(result.status == 0, "\(result.output)")
        let expected: [(String, Int)] = [
            ("/usr/local/bin/fairfuel", 0o755),
            ("/etc/fairfuel/board.toml", 0o644),
            ("/etc/fairfuel/boards/pi-zero-2w.toml", 0o644),
            ("/etc/fairfuel/boards/README.md", 0o644),
            ("/etc/udev/rules.d/99-fairfuel-mcu.rules", 0o644),
            ("/etc/systemd/system/fairfuel.service", 0o644),
            ("/etc/systemd/system/fairfuel-usb-pull.service", 0o644),
            ("/etc/fairfuel", 0o755),
        ]
        for (path, mode) in expected {
            #expect(Self.mode(root + path) == mode, "\(path)")
        }
        // The default profile (the Zero) has its MCU on the UART: its rule comes without --uart.
        #expect(Self.mode(root + "/etc/udev/rules.d/99-fairfuel-mcu-uart.rules") == 0o644)
        let pi4 = directory + "/pi4"
        #expect(try ScriptRunner.run(Self.script, ["--destdir", pi4, "--no-build", "--binary", binary, "--board", "pi-4"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: pi4 + "/etc/udev/rules.d/99-fairfuel-mcu-uart.rules"))
        #expect(FileManager.default.contentsEqual(atPath: root + "/usr/local/bin/fairfuel", andPath: binary))
        #expect(FileManager.default.contentsEqual(
            atPath: root + "/etc/fairfuel/board.toml", andPath: ScriptRunner.root + "/boards/pi-zero-2w.toml"))
        #expect(FileManager.default.contentsEqual(
            atPath: root + "/etc/systemd/system/fairfuel.service", andPath: ScriptRunner.root + "/systemd/fairfuel.service"))
    }

    @Test func runsAgainKeepingALocallyEditedProfile() throws {
        let (directory, binary) = try Self.stage()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = directory + "/root"
        // DESTDIR in the environment stages too, and skips the system steps by itself.
        let first = try ScriptRunner.run(Self.script, ["--no-build", "--binary", binary, "--board", "pi-4", "--uart"], environment: ["DESTDIR": root])
        #expect(first.status == 0, "\(first.output)")
        #expect(FileManager.default.contentsEqual(atPath: root + "/etc/fairfuel/board.toml", andPath: ScriptRunner.root + "/boards/pi-4.toml"))
        #expect(Self.mode(root + "/etc/udev/rules.d/99-fairfuel-mcu-uart.rules") == 0o644)
        try "# edited on the dongle\n".write(toFile: root + "/etc/fairfuel/board.toml", atomically: true, encoding: .utf8)
        let second = try ScriptRunner.run(Self.script, ["--no-build", "--binary", binary], environment: ["DESTDIR": root])
        #expect(second.status == 0, "\(second.output)")
        #expect(try String(contentsOfFile: root + "/etc/fairfuel/board.toml", encoding: .utf8) == "# edited on the dongle\n")
        #expect(second.output.contains("board.toml kept"))
    }

    @Test func aPrefixMovesTheBinaryAndTheUnitFollows() throws {
        let (directory, binary) = try Self.stage()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = directory + "/root"
        let result = try ScriptRunner.run(Self.script, ["--destdir", root, "--prefix", "/opt/fairfuel", "--no-build", "--binary", binary])
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.mode(root + "/opt/fairfuel/bin/fairfuel") == 0o755)
        let unit = try String(contentsOfFile: root + "/etc/systemd/system/fairfuel.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/opt/fairfuel/bin/fairfuel run --board /etc/fairfuel/board.toml\n"))
        let pull = try String(contentsOfFile: root + "/etc/systemd/system/fairfuel-usb-pull.service", encoding: .utf8)
        #expect(pull.contains("\nExecStart=/opt/fairfuel/bin/fairfuel usb-serve "))
    }

    /// Every systemd unit and dongle udev rule the README names is installed (and enabled, for units).
    @Test func everyUnitTheReadmeNamesIsInstalledAndEnabled() throws {
        let (directory, binary) = try Self.stage()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = directory + "/root"
        let result = try ScriptRunner.run(Self.script, ["--destdir", root, "--no-build", "--binary", binary])
        #expect(result.status == 0, "\(result.output)")
        let readme = try String(contentsOfFile: ScriptRunner.root + "/README.md", encoding: .utf8)
        let units = Set(readme.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "." && $0 != "/" })
            .filter { $0.hasSuffix(".service") }.map { String($0.split(separator: "/").last!) })
        #expect(units.count >= 2, "\(units)")
        let script = try String(contentsOfFile: Self.script, encoding: .utf8)
        for unit in units {
            #expect(FileManager.default.fileExists(atPath: root + "/etc/systemd/system/" + unit), "\(unit) is not installed")
            #expect(script.contains("units=\"") && script.split(separator: "\n").contains { $0.hasPrefix("units=") && $0.contains(unit) },
                    "\(unit) is not enabled")
        }
        #expect(script.contains("systemctl enable $units"))
    }

    @Test func refusesBadArgumentsWithoutInstallingAnything() throws {
        let (directory, binary) = try Self.stage()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = directory + "/root"
        for arguments in [["--frobnicate"], ["--board", "no-such-board"], ["--prefix", "relative/dir"], ["--binary", directory + "/missing"]] {
            let result = try ScriptRunner.run(Self.script, ["--destdir", root, "--no-build", "--binary", binary] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.output.contains("install.sh: "), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/usr"))
    }
}
