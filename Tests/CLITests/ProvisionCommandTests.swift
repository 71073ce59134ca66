import Foundation
import Testing
import TestSupport

/// `fairfuel provision`, `vehicle set` and `mcu` end to end through the executable, as
/// golden transcripts. Regenerate with FAIRFUEL_REGENERATE_GOLDEN=1 and review the diff.
@Suite struct ProvisionCommandTests {
    static let fixtures = PackagePaths.root + "/Tests/CLITests/Fixtures/provision"

    /// Runs each command on one fresh store and writes what a technician would see.
    static func transcript(_ commands: [[String]], directory: String) throws -> String {
        var text = ""
        for arguments in commands {
            let result = try FairFuelExecutable.run(
                arguments + ["--db", directory + "/fairfuel.db"], input: "",
                environment: ["FAIRFUEL_CONTROL": directory + "/no-service.sock"])
            text += "$ fairfuel " + arguments.joined(separator: " ") + "\n" + result.standardOutput
            for line in result.standardError.split(separator: "\n") where !line.hasPrefix("Usage") && !line.hasPrefix("  See") && !line.isEmpty {
                text += "stderr: \(line)\n"
            }
            if result.exitCode != 0 { text += "[exit \(result.exitCode)]\n" }
        }
        return text.replacingOccurrences(of: directory, with: "TMP")
    }

    static func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "fairfuel-provision-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func driversAddListRenameRemoveWithClearErrors() throws {
        let directory = try Self.temporaryDirectory()
        let text = try Self.transcript([
            ["provision", "driver", "add", "Anna", "--tag", "04:a2:2b:7a:3c:5d:80", "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1", "--contact", "anna@example.org"],
            ["provision", "driver", "add", "Ben", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8"],
            ["provision", "driver", "add", "Cara", "--tag", "04A22B7A3C5D80"],
            ["provision", "driver", "add", "Cara", "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1"],
            ["provision", "driver", "add", "anna"],
            ["provision", "driver", "rename", "Ben", "anna"],
            ["provision", "driver", "rename", "Ben", "Benedikt"],
            ["provision", "driver", "rename", "Zed", "Zoe"],
            ["provision", "driver", "remove", "Zed"],
            ["provision", "driver", "remove", "anna"],
            ["provision", "driver", "add", "Cara", "--tag", "04A22B7A3C5D80", "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1"],
            ["provision", "driver", "list"],
            ["provision", "driver", "list", "--removed"],
            // Anna comes back as herself (her tag is Cara's now), then someone else of her name.
            ["provision", "driver", "add", "ANNA", "--tag", "04A22B7A3C5D80"],
            ["provision", "driver", "add", "Anna", "--contact", "anna@new.example"],
            ["provision", "driver", "remove", "Anna"],
            ["provision", "driver", "add", "Anna", "--new-person"],
            ["provision", "driver", "list", "--removed"],
            ["provision", "learn-tag", "Nobody"],
            ["provision", "learn-tag", "Cara", "--timeout-s", "5"],
            ["provision", "write-tag", "Cara", "--timeout-s", "0"],
        ], directory: directory)
        #expect(text == (try Golden.expected(at: Self.fixtures + "/drivers.transcript", actual: text)))
    }

    @Test func vehicleSetValidatesRangesAndCurrencies() throws {
        let directory = try Self.temporaryDirectory()
        let text = try Self.transcript([
            // A new store's car: the defaults, and the hint to replace them.
            ["vehicle", "set", "--name", "Zoe", "--tank-l", "50"],
            ["vehicle", "show"],
            ["vehicle", "set", "--name", "Zoe", "--l-per-100km", "5.2", "--mass-kg", "1250", "--idle-l-per-h", "0.6", "--fuel", "diesel", "--currency", "chf", "--units", "imperial"],
            ["vehicle", "set", "--currency", "XYZ"],
            ["vehicle", "set", "--mass-kg", "90"],
            ["vehicle", "set", "--idle-l-per-h", "9"],
            ["vehicle", "set", "--units", "furlongs"],
            ["vehicle", "set", "--currency", "JPY"],
            ["vehicle", "show"],
            // The idle rate from the displacement, for the car's fuel (diesel: the same idle energy).
            ["vehicle", "set", "--engine-l", "1.6"],
            ["vehicle", "set", "--fuel", "petrol", "--engine-l", "3.6"],
            ["vehicle", "set", "--engine-l", "12"],
            ["vehicle", "set", "--engine-l", "2.0", "--idle-l-per-h", "1.0"],
        ], directory: directory)
        #expect(text == (try Golden.expected(at: Self.fixtures + "/vehicle.transcript", actual: text)))
    }

    @Test func exportThenImportElsewhereIsIdempotent() throws {
        let directory = try Self.temporaryDirectory()
        let other = try Self.temporaryDirectory()
        let bundle = directory + "/bundle.toml"
        _ = try Self.transcript([
            ["provision", "driver", "add", "Anna", "--tag", "04:a2:2b:7a:3c:5d:80", "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1", "--contact", "anna@example.org"],
            ["provision", "driver", "add", "Ben", "--tag", "fairfuel://driver/3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8", "--beacon", "eddystone:edd1ebeac04e5defa017:0000000000c4"],
            ["vehicle", "set", "--name", "Blue van", "--l-per-100km", "8.1", "--fuel", "diesel", "--currency", "GBP"],
        ], directory: directory)
        let export = try FairFuelExecutable.run(["provision", "export", bundle, "--db", directory + "/fairfuel.db"])
        #expect(export.exitCode == 0, "\(export.standardError)")
        let written = try String(contentsOfFile: bundle, encoding: .utf8)
        #expect(written == (try Golden.expected(at: Self.fixtures + "/bundle.toml", actual: written)))

        // The other car already knows Ben under another name (by his driver URI) and has a Cara
        // holding Anna's fob: a rename, an addition and a conflict, then nothing the second time.
        let text = try Self.transcript([
            ["provision", "driver", "add", "Benny", "--tag", "fairfuel://driver/3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8"],
            ["provision", "driver", "add", "Cara", "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1"],
            ["provision", "import", bundle],
            ["provision", "import", bundle],
            ["provision", "driver", "list"],
            ["vehicle", "show"],
            ["provision", "import", directory + "/missing.toml"],
        ], directory: other)
        let shown = text.replacingOccurrences(of: directory, with: "SRC")
        #expect(shown == (try Golden.expected(at: Self.fixtures + "/import.transcript", actual: shown)))
    }

    @Test func aBrokenBundleChangesNothing() throws {
        let directory = try Self.temporaryDirectory()
        let cases = [
            ("format = \"fairfuel-provisioning-1\"\n[[driver]]\nname = \"A\"\ntags = [\"04a2\"]\n", "tag '04a2'"),
            ("format = \"fairfuel-provisioning-1\"\n[vehicle]\nname = \"x\"\nl_per_100km = 99.0\nmass_kg = 1400.0\nidle_l_per_h = 0.8\nfuel = \"petrol\"\ntank_l = 55.0\ncurrency = \"EUR\"\nunits = \"metric\"\nuntracked = \"owner\"\n", "vehicle, line 4: l_per_100km must be 1 to 40"),
            ("[[driver]]\nname = \"A\"\n", "`format = \"fairfuel-provisioning-1\"` is missing"),
            ("format = \"fairfuel-provisioning-1\"\n[[driver]]\nname = \"A\"\n[[driver]]\nname = \"a\"\n", "driver 'a' is in the bundle twice"),
        ]
        for (index, (bundle, message)) in cases.enumerated() {
            let path = directory + "/bad\(index).toml"
            try bundle.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try FairFuelExecutable.run(["provision", "import", path, "--db", directory + "/fairfuel.db"], environment: ["FAIRFUEL_CONTROL": directory + "/none.sock"])
            #expect(result.exitCode != 0)
            #expect(result.standardError.contains(message), "\(result.standardError)")
        }
        let list = try FairFuelExecutable.run(["provision", "driver", "list", "--db", directory + "/fairfuel.db"])
        #expect(list.standardOutput.isEmpty)
    }

    /// One tag for two drivers, or twice for one: refused whole (exit 1, nobody imported), naming
    /// the bundle's lines, never a partial import or SQLite's own words.
    @Test func aTagGivenTwiceRefusesTheWholeBundleNamingItsLine() throws {
        let directory = try Self.temporaryDirectory()
        let db = directory + "/fairfuel.db"
        let cases = [
            ("format = \"fairfuel-provisioning-1\"\n[[driver]]\nname = \"Anna\"\ntags = [\"04a22b7a\"]\n[[driver]]\nname = \"Ben\"\ntags = [\"04:A2:2B:7A\"]\n",
             "line 7: driver Ben: tag 04:A2:2B:7A is given to Anna too (line 4); a tag belongs to one driver"),
            ("format = \"fairfuel-provisioning-1\"\n[[driver]]\nname = \"Anna\"\ntags = [\"04a22b7a\", \"04a22b7a\"]\n",
             "line 4: driver Anna: tag 04:A2:2B:7A is listed twice; a tag belongs to one driver"),
        ]
        for (index, (bundle, message)) in cases.enumerated() {
            let path = directory + "/twice\(index).toml"
            try bundle.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try FairFuelExecutable.run(["provision", "import", path, "--db", db], environment: ["FAIRFUEL_CONTROL": directory + "/none.sock"])
            #expect(result.exitCode == 1, "\(result.exitCode) \(result.standardOutput)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
            #expect(!result.standardError.contains("SQLite"), "\(result.standardError)")
            let list = try FairFuelExecutable.run(["provision", "driver", "list", "--db", db])
            #expect(list.standardOutput.isEmpty, "nobody imported: \(list.standardOutput)")
        }
    }

    /// A bundle that lists a driver removed here brings them back (the same driver id, so their trips and bills), as
    /// `provision driver add` does, instead of adding a second person of that name.
    @Test func anImportBringsBackARemovedDriver() throws {
        let directory = try Self.temporaryDirectory()
        let db = directory + "/fairfuel.db"
        let environment = ["FAIRFUEL_CONTROL": directory + "/none.sock"]
        for arguments in [["provision", "driver", "add", "Ben"], ["provision", "driver", "remove", "Ben"]] {
            let result = try FairFuelExecutable.run(arguments + ["--db", db], environment: environment)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        }
        let bundle = directory + "/ben.toml"
        try "format = \"fairfuel-provisioning-1\"\n[[driver]]\nname = \"ben\"\ntags = [\"04a22b7a\"]\n".write(toFile: bundle, atomically: true, encoding: .utf8)
        let imported = try FairFuelExecutable.run(["provision", "import", bundle, "--db", db], environment: environment)
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("brought back driver Ben (removed earlier; their past trips and bills are theirs as before) (1 tag(s), 0 beacon(s))"),
                "\(imported.standardOutput)")
        let list = try FairFuelExecutable.run(["provision", "driver", "list", "--removed", "--db", db]).standardOutput
        #expect(list == "1\tBen\n\ttag uid:04:A2:2B:7A\n", "one Ben, current again, with the bundle's tag: \(list)")
    }

    @Test func mcuBootloaderAsksFirst() throws {
        let directory = try Self.temporaryDirectory()
        let result = try FairFuelExecutable.run(
            ["mcu", "bootloader", "--port", directory + "/no-such-port"], input: "n\n",
            environment: ["FAIRFUEL_CONTROL": directory + "/none.sock"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasSuffix("[y/N] not sent\n"))
        let info = try FairFuelExecutable.run(["mcu", "info", "--port", directory + "/no-such-port"], environment: ["FAIRFUEL_CONTROL": directory + "/none.sock"])
        #expect(info.exitCode != 0)
        #expect(info.standardError.contains("cannot open the MCU port \(directory)/no-such-port"))
    }

    /// Without `--port`, `mcu info` and `mcu bootloader` use the port of the board profile the
    /// service runs with (`$FAIRFUEL_BOARD`), as every other command finds its profile.
    @Test func mcuCommandsTakeThePortFromTheBoardProfileInTheEnvironment() throws {
        let directory = try Self.temporaryDirectory()
        var profile = try BoardFiles.text("x86-64-dev.toml")
        let port = directory + "/profile-port"
        #expect(profile.contains("port = \"/dev/fairfuel-mcu\""), "x86-64-dev.toml no longer names /dev/fairfuel-mcu")
        profile = profile.replacingOccurrences(of: "port = \"/dev/fairfuel-mcu\"", with: "port = \"\(port)\"")
        let board = directory + "/board.toml"
        try profile.write(toFile: board, atomically: true, encoding: .utf8)
        let environment = ["FAIRFUEL_CONTROL": directory + "/none.sock", "FAIRFUEL_BOARD": board]
        let info = try FairFuelExecutable.run(["mcu", "info"], environment: environment)
        #expect(info.exitCode != 0)
        #expect(info.standardError.contains("cannot open the MCU port \(port)"), "\(info.standardError)")
        let bootloader = try FairFuelExecutable.run(["mcu", "bootloader", "--yes"], environment: environment)
        #expect(bootloader.exitCode != 0)
        #expect(bootloader.standardError.contains("cannot open the MCU port \(port)"), "\(bootloader.standardError)")
        // A profile that cannot be read is a clear error, not the built-in port.
        let unreadable = try FairFuelExecutable.run(["mcu", "info"], environment: ["FAIRFUEL_CONTROL": directory + "/none.sock", "FAIRFUEL_BOARD": directory + "/missing.toml"])
        #expect(unreadable.exitCode != 0)
        #expect(unreadable.standardError.contains("cannot read the board profile for the MCU's serial port"), "\(unreadable.standardError)")
    }
}

/// The technician's commands against a running service: `fairfuel sim` plays the MCU on a
/// pseudo-terminal, `fairfuel run` serves it, and the commands go through the control socket.
@Suite(.serialized) struct ProvisionLiveServiceTests {
    static let scenario = """
        title live provisioning
        seed 4
        start 2026-03-02 09:00
        place workshop 48.12000 11.56000
        vehicle at workshop
        driver Anna tag ntag215 04:51:62:73:84:95:A6
        day 1 mon
        09:00:08 tap Anna
        09:00:20 end
        """

    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FairFuelExecutable.path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Without a service, `mcu info` then `mcu bootloader` on the port itself: each process starts
    /// its stream at seq 0, so the second must restart the MCU's count first, or its BOOTLOADER is
    /// dropped as a duplicate (and re-ACKed) and never done.
    @Test func bootloaderRightAfterInfoReachesTheMCU() throws {
        let directory = NSTemporaryDirectory() + "ff-direct-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.scenario.write(toFile: directory + "/live.scenario", atomically: true, encoding: .utf8)
        let simOutput = directory + "/sim.out"
        FileManager.default.createFile(atPath: simOutput, contents: nil)
        let sim = Process()
        sim.executableURL = URL(fileURLWithPath: FairFuelExecutable.path)
        sim.arguments = ["sim", directory + "/live.scenario", "--link", directory + "/mcu"]
        sim.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: simOutput))
        sim.standardError = FileHandle.nullDevice
        try sim.run()
        defer { sim.terminate(); sim.waitUntilExit() }
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: directory + "/mcu") && Date() < deadline { usleep(20_000) }
        let direct = ["--port", directory + "/mcu"]
        let noService = ["FAIRFUEL_CONTROL": directory + "/none.sock"]
        let info = try FairFuelExecutable.run(["mcu", "info"] + direct, environment: noService)
        #expect(info.standardOutput.contains("firmware 1.4.2"), "\(info.standardOutput) \(info.standardError)")
        let boot = try FairFuelExecutable.run(["mcu", "bootloader", "--yes"] + direct, environment: noService)
        #expect(boot.exitCode == 0, "\(boot.standardError)")
        #expect(boot.standardOutput.hasPrefix("the MCU acknowledged BOOTLOADER"))
        var log = ""
        while Date() < deadline.addingTimeInterval(5) {
            log = (try? String(contentsOfFile: simOutput, encoding: .utf8)) ?? ""
            if log.contains("into the bootloader") { break }
            usleep(50_000)
        }
        #expect(log.contains("host bootloader seq 1"), "\(log)")
        #expect(log.contains("into the bootloader"), "the MCU never got BOOTLOADER:\n\(log)")
        // In its bootloader the MCU is silent: a command now says clearly that it got no answer.
        let again = try FairFuelExecutable.run(["mcu", "bootloader", "--yes"] + direct, environment: noService)
        #expect(again.exitCode != 0)
        #expect(again.standardError.contains("did not answer HELLO_REQ; the command was not sent"), "\(again.standardError)")
    }

    @Test func learnTagAndReloadThroughTheRunningService() throws {
        let directory = NSTemporaryDirectory() + "ff-live-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.scenario.write(toFile: directory + "/live.scenario", atomically: true, encoding: .utf8)
        let db = ["--db", directory + "/fairfuel.db"]
        let control = ["--control", directory + "/control.sock"]
        #expect(try FairFuelExecutable.run(["provision", "driver", "add", "Anna"] + db).exitCode == 0)
        let sim = try Self.start(["sim", directory + "/live.scenario", "--link", directory + "/mcu", "--quiet"])
        // The sim may finish the scenario (20 s) before it notices SIGTERM: keep the scenario short.
        defer { sim.terminate(); sim.waitUntilExit() }
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: directory + "/mcu") && Date() < deadline { usleep(20_000) }
        let service = try Self.start(["run", "--port", directory + "/mcu"] + control + db)
        defer { service.terminate(); service.waitUntilExit() }
        var info = ""
        while Date() < deadline.addingTimeInterval(5) {
            info = try FairFuelExecutable.run(["mcu", "info"] + control).standardOutput
            if info.contains("firmware") { break }
            usleep(100_000)
        }
        #expect(info.contains("via the running service (link up"), "\(info)")

        let add = try FairFuelExecutable.run(["provision", "driver", "add", "Ben"] + db + control)
        #expect(add.standardOutput.hasSuffix("the running service at \(directory)/control.sock took the change\n"), "\(add.standardOutput)")
        let learn = try FairFuelExecutable.run(["provision", "learn-tag", "anna", "--timeout-s", "20"] + db + control)
        #expect(learn.exitCode == 0, "\(learn.standardError)")
        #expect(learn.standardOutput == "Tap the tag for Anna on the dongle within 20 s (the dongle beeps the provisioning pattern)…\nbound tag uid:04:51:62:73:84:95:A6 to Anna\n")
        let boot = try FairFuelExecutable.run(["mcu", "bootloader", "--yes"] + control)
        #expect(boot.standardOutput.hasPrefix("the MCU acknowledged BOOTLOADER"), "\(boot.standardOutput) \(boot.standardError)")
        let list = try FairFuelExecutable.run(["provision", "driver", "list"] + db)
        #expect(list.standardOutput.contains("1\tAnna\n\ttag uid:04:51:62:73:84:95:A6\n"))
    }
}
