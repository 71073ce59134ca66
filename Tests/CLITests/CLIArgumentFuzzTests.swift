import Foundation
import Testing
import TestSupport

/// Random argument vectors through the real executable: every run ends with 0, 1 (a refused
/// operation) or 64 (a refused argument), never a crash or a trap, and the store stays sound.
/// FAIRFUEL_FUZZ_CLI_CASES sets the count (the suite runs a short one).
@Suite struct CLIArgumentFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["FAIRFUEL_FUZZ_CLI_CASES"] ?? "") ?? 60

    static let commands: [[String]] = [
        ["refuel"], ["refuel", "remove"], ["provision", "driver", "add"], ["provision", "driver", "rename"], ["vehicle", "set"],
        ["trips"], ["split"], ["summary"], ["sim", PackagePaths.root + "/scenarios/short-drive.scenario", "--dry-run", "--no-link"],
    ]
    static let options = [
        "--liters", "--gallons", "--cost", "--at", "--odometer-km", "--odometer-mi", "--station", "--note", "--name", "--since",
        "--until", "--month", "--seconds", "--speed", "--driver", "--partial", "--json", "--csv", "--by", "--tank-l",
    ]
    static let values = [
        "0x10", "1e-320", "0.0000001", "-5", "41.3", "inf", "nan", "1e400", "", "abc", "72.50", "100000.01", "2026-11-20T09:00Z",
        "1999-01-01", "2101-01-01", "2026-13-40", "Ann", "Ann\nBen", "A\u{202E}B", "\u{200B}", String(repeating: "x", count: 5_000),
        "month", "driver", "--", "-", "99999999999999999999", "0", "500", "500.0001", ".5", "5.", "+5", "١٢",
    ]

    @Test func randomArgumentsNeverCrashTheCommand() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-cli-fuzz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/fairfuel.db"
        #expect(try FairFuelExecutable.run(["provision", "driver", "add", "Ann", "--db", db]).exitCode == 0)
        var generator = SeededGenerator(seed: 1515)
        var exits: [Int32: Int] = [:]
        for _ in 0..<Self.cases {
            var arguments = Self.commands.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                if Bool.random(using: &generator) { arguments.append(Self.options.randomElement(using: &generator)!) }
                arguments.append(Self.values.randomElement(using: &generator)!)
            }
            let result = try FairFuelExecutable.run(arguments + ["--db", db])
            exits[result.exitCode, default: 0] += 1
            #expect([0, 1, 64].contains(result.exitCode), "\(arguments.map(\.debugDescription)) exited \(result.exitCode): \(result.standardError.prefix(300))")
            #expect(!result.standardError.contains("Fatal error"))
        }
        let check = try FairFuelExecutable.run(["store", "check", "--db", db])
        #expect(check.exitCode == 0, "\(check.standardOutput)\(check.standardError)")
        print("CLI fuzz: \(Self.cases) random argument vectors; exit codes \(exits.sorted { $0.key < $1.key })")
    }
}
