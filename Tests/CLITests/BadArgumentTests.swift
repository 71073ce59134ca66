import Foundation
import Testing
import TestSupport

/// A table of bad arguments, each with the message it must get; a failing command changes
/// nothing in an existing store (the hash of its files is the same) and creates no store at a new path.
@Suite struct BadArgumentTests {
    struct Case: CustomStringConvertible, Sendable {
        var arguments: [String]
        var says: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["refuel", "--liters", "0x10", "--cost", "10"], says: "'0x10' is not a plain decimal number"),
        Case(arguments: ["refuel", "--liters", "1e-320", "--cost", "10"], says: "'1e-320' is not a plain decimal number"),
        Case(arguments: ["refuel", "--liters", "0.0000001", "--cost", "10"], says: "'0.0000001' is out of range: 0.1 to 500 L"),
        Case(arguments: ["refuel", "--liters", "-5", "--cost", "10"], says: "'-5' is out of range: 0.1 to 500 L"),
        Case(arguments: ["refuel", "--liters", "501", "--cost", "10"], says: "'501' is out of range: 0.1 to 500 L"),
        Case(arguments: ["refuel", "--liters", "inf", "--cost", "10"], says: "'inf' is not a plain decimal number"),
        Case(arguments: ["refuel", "--liters", "nan", "--cost", "10"], says: "'nan' is not a plain decimal number"),
        Case(arguments: ["refuel", "--liters", "4,5", "--cost", "10"], says: "'4,5' is not a plain decimal number"),
        Case(arguments: ["refuel", "--liters", "40", "--cost", "abc"], says: "'abc' is not a plain decimal number"),
        Case(arguments: ["refuel", "--liters", "40", "--cost", "100000.01"], says: "is out of range: 0 to 100000"),
        Case(arguments: ["refuel", "--liters", "40", "--cost", "-1"], says: "'-1' is out of range: 0 to 100000"),
        Case(arguments: ["refuel", "--gallons", "1e3", "--cost", "10"], says: "'1e3' is not a plain decimal number"),
        Case(arguments: ["refuel", "--liters", "40", "--cost", "10", "--at", "1999-12-31T23:00Z"], says: "out of range: years 2000 to 2100"),
        Case(arguments: ["refuel", "--liters", "40", "--cost", "10", "--at", "2101-01-01T00:00Z"], says: "out of range: years 2000 to 2100"),
        Case(arguments: ["refuel", "--liters", "40", "--cost", "10", "--odometer-km", "-3"], says: "'-3' is out of range: 0 to 2000000 km"),
        Case(arguments: ["refuel", "--liters", "40", "--cost", "10", "--station", "A\u{202E}B"], says: "U+202E"),
        Case(arguments: ["refuel", "remove", "999"], says: "no refuel with id 999"),
        Case(arguments: ["trips", "--since", "1999-12-31"], says: "--since: '1999-12-31' is out of range: years 2000 to 2100"),
        Case(arguments: ["summary", "--month", "1999-12"], says: "--month: '1999-12' is out of range: years 2000 to 2100"),
        Case(arguments: ["refuel", "settle", "--month", "2101-01"], says: "--month: '2101-01' is out of range: years 2000 to 2100"),
        Case(arguments: ["provision", "driver", "add", ""], says: "must not be empty (1 to 64 characters)"),
        Case(arguments: ["provision", "driver", "add", String(repeating: "x", count: 100_000)], says: "is too long: at most 64 characters"),
        Case(arguments: ["provision", "driver", "add", "Ann\nBen"], says: "contains a control character (U+000A)"),
        Case(arguments: ["provision", "driver", "add", "Ann\u{200B}"], says: "invisible formatting character (U+200B"),
        Case(arguments: ["provision", "driver", "add", "\u{202E}nnA"], says: "invisible formatting character (U+202E"),
        Case(arguments: ["provision", "driver", "add", " Ann"], says: "must not start or end with a space"),
        Case(arguments: ["provision", "driver", "rename", "Ann", "B\u{0007}"], says: "contains a control character (U+0007)"),
        Case(arguments: ["vehicle", "set", "--name", String(repeating: "é", count: 65)], says: "at most 64 characters"),
        Case(arguments: ["sim", PackagePaths.root + "/scenarios/short-drive.scenario", "--seconds", "inf"], says: "'inf' is not a plain decimal number"),
        Case(arguments: ["sim", PackagePaths.root + "/scenarios/short-drive.scenario", "--seconds", "nan"], says: "'nan' is not a plain decimal number"),
        Case(arguments: ["sim", PackagePaths.root + "/scenarios/short-drive.scenario", "--seconds", "1e400"], says: "'1e400' is not a plain decimal number"),
        Case(arguments: ["sim", PackagePaths.root + "/scenarios/short-drive.scenario", "--seconds", "99999999999"], says: "is out of range: 0.001 to 31622400 s"),
        Case(arguments: ["sim", PackagePaths.root + "/scenarios/short-drive.scenario", "--seconds", "-5"], says: "'-5' is out of range"),
    ]

    /// The bytes of the store and its WAL (what a change would touch), as a hash to compare.
    static func hash(_ db: String) -> Int {
        var hasher = Hasher()
        // A missing WAL and an empty one are the same store (SQLite removes it on a clean close).
        for path in [db, db + "-wal"] { hasher.combine(FileManager.default.contents(atPath: path) ?? Data()) }
        return hasher.finalize()
    }

    static let existing: String = {
        let directory = NSTemporaryDirectory() + "fairfuel-bad-args-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/fairfuel.db"
        _ = try! FairFuelExecutable.run(["provision", "driver", "add", "Ann", "--db", db])
        _ = try! FairFuelExecutable.run(["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "40", "--cost", "72.50", "--db", db])
        // A checkpoint now, so that opening the store again has nothing left to fold into the file.
        _ = try! FairFuelExecutable.run(["store", "check", "--db", db])
        return db
    }()

    @Test(arguments: cases)
    func isRefusedWithItsMessageAndChangesNothing(_ bad: Case) throws {
        let db = Self.existing
        let before = Self.hash(db)
        let result = try FairFuelExecutable.run(bad.arguments + (bad.arguments[0] == "sim" ? ["--no-link", "--dry-run"] : ["--db", db]))
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains(bad.says), "\(result.standardError.prefix(600))")
        #expect(!result.standardError.contains("Fatal error"))
        if bad.arguments[0] != "sim" { #expect(Self.hash(db) == before, "the store changed") }
    }

    @Test(arguments: cases.filter { $0.arguments[0] != "sim" })
    func atANewPathCreatesNothing(_ bad: Case) throws {
        let directory = NSTemporaryDirectory() + "fairfuel-bad-new-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try FairFuelExecutable.run(bad.arguments + ["--db", directory + "/fairfuel.db"])
        #expect(result.exitCode != 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [], "left behind")
    }

    @Test func aGoodNameWithAnEmojiSequenceIsKept() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-good-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/fairfuel.db"
        let name = "Zoë 👩‍👧 Ōtsuka"
        let add = try FairFuelExecutable.run(["provision", "driver", "add", name, "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        #expect(try FairFuelExecutable.run(["provision", "driver", "list", "--db", db]).standardOutput.contains(name))
    }
}
