import FairFuelCore
import FairFuelEdges
import Foundation
import Testing
import TestSupport

/// TimeZoneDatabase against a temporary directory of fixture files, and against the system's tzdata and zdump.
@Suite struct TimeZoneDatabaseTests {
    static let fixtures = PackagePaths.root + "/Tests/FairFuelCoreTests/Fixtures/tzif"

    /// A fresh directory holding Europe/Berlin (the fixture), removed by `cleanUp`.
    static func database() throws -> String {
        let directory = NSTemporaryDirectory() + "fairfuel-tz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/Europe", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixtures + "/Europe_Berlin.tzif", toPath: directory + "/Europe/Berlin")
        return directory
    }

    static func cleanUp(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    static let july2026 = Int64(UTCDate(year: 2026, month: 7, day: 1)!.daysSinceEpoch) * 86_400_000

    @Test func utcNeedsNoFile() throws {
        #expect(try TimeZoneDatabase.load("UTC", directory: "/nonexistent/zoneinfo") == .utc)
        #expect(try TimeZoneDatabase.load("Etc/UTC", directory: "/nonexistent/zoneinfo") == .utc)
    }

    @Test func loadsFromADirectory() throws {
        let directory = try Self.database()
        defer { Self.cleanUp(directory) }
        let berlin = try TimeZoneDatabase.load("Europe/Berlin", directory: directory)
        #expect(berlin.name == "Europe/Berlin")
        #expect(berlin.offsetSeconds(atUTCMs: Self.july2026) == 7200)
        #expect(berlin.abbreviation(atUTCMs: Self.july2026) == "CEST")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/Europe_Berlin.tzif")))
        #expect(berlin == (try TimeZoneRules(name: "Europe/Berlin", tzif: bytes)))
    }

    @Test(arguments: [
        "../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "..", ".", "Europe/./Berlin", "Europe//Berlin",
        "Europe/Berlin/", "", "Europe/Ber lin", "Europe/.Berlin", "Europe\\Berlin", "Europe/Berlin\n", "Europe/Zürich",
        String(repeating: "A", count: 65),
    ])
    func namesOutsideTheDatabaseAreRefused(name: String) throws {
        let directory = try Self.database()
        defer { Self.cleanUp(directory) }
        #expect(throws: TimeZoneError("'\(name)' is not a time zone name")) {
            try TimeZoneDatabase.load(name, directory: directory)
        }
    }

    @Test func longestNameIsAccepted() throws {
        let directory = try Self.database()
        defer { Self.cleanUp(directory) }
        let name = "Etc/" + String(repeating: "A", count: 60)
        #expect(throws: TimeZoneError("unknown time zone '\(name)' (no \(directory)/\(name); names as in \(directory), e.g. Europe/Berlin)")) {
            try TimeZoneDatabase.load(name, directory: directory)
        }
    }

    @Test func unknownNamesSayWhereNamesComeFrom() throws {
        let directory = try Self.database()
        defer { Self.cleanUp(directory) }
        #expect(throws: TimeZoneError("unknown time zone 'Europe/Berln' (no \(directory)/Europe/Berln; names as in \(directory), e.g. Europe/Berlin)")) {
            try TimeZoneDatabase.load("Europe/Berln", directory: directory)
        }
        #expect(throws: TimeZoneError("unknown time zone 'Europe' (\(directory)/Europe is a directory of zones; name one in it, e.g. Europe/Berlin)")) {
            try TimeZoneDatabase.load("Europe", directory: directory)
        }
        #expect(throws: TimeZoneError("unknown time zone 'Europe/Berlin': there is no time zone database at \(directory)/none (install tzdata)")) {
            try TimeZoneDatabase.load("Europe/Berlin", directory: directory + "/none")
        }
    }

    @Test func defaultDirectoryMessage() throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/share/zoneinfo"), "no /usr/share/zoneinfo (install tzdata)")
        #expect(throws: TimeZoneError("unknown time zone 'Europe/Berln' (no /usr/share/zoneinfo/Europe/Berln; names as in /usr/share/zoneinfo, e.g. Europe/Berlin)")) {
            try TimeZoneDatabase.load("Europe/Berln")
        }
    }

    @Test func filesThatAreNotTZifAreNamed() throws {
        let directory = try Self.database()
        defer { Self.cleanUp(directory) }
        try FileManager.default.createDirectory(atPath: directory + "/Etc", withIntermediateDirectories: true)
        try Data("# a text file\n".utf8).write(to: URL(fileURLWithPath: directory + "/Etc/Text"))
        let berlin = try Data(contentsOf: URL(fileURLWithPath: directory + "/Europe/Berlin"))
        try berlin.prefix(1000).write(to: URL(fileURLWithPath: directory + "/Etc/Cut"))
        try Data(count: 300 * 1024).write(to: URL(fileURLWithPath: directory + "/Etc/Huge"))
        #expect(throws: TimeZoneError("\(directory)/Etc/Text is not a TZif file: truncated: a 44-byte header needs 44 bytes from byte 0, but the file has 14 bytes")) {
            try TimeZoneDatabase.load("Etc/Text", directory: directory)
        }
        let cut = #expect(throws: TimeZoneError.self) { try TimeZoneDatabase.load("Etc/Cut", directory: directory) }
        #expect(cut?.description.hasPrefix("\(directory)/Etc/Cut is not a TZif file: truncated: ") == true, "\(cut?.description ?? "")")
        #expect(throws: TimeZoneError("\(directory)/Etc/Huge is not a TZif file: it is larger than 256 KiB")) {
            try TimeZoneDatabase.load("Etc/Huge", directory: directory)
        }
    }

    // MARK: every zone of the system against zdump

    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    /// "Sun Mar 31 00:59:59 2024" as seconds since 1970 (zdump's asctime form).
    static func seconds(month: Substring, day: Substring, time: Substring, year: Substring) -> Int64? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let clock = time.split(separator: ":").compactMap { Int64($0) }
        guard let month = months.firstIndex(of: String(month)), let day = Int(day), let year = Int(year), clock.count == 3,
            let date = UTCDate(year: year, month: month + 1, day: day)
        else { return nil }
        return date.daysSinceEpoch * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
    }

    /// Every zone and link of tzdata.zi, loaded, and its offsets checked against glibc's zdump at each
    /// change of 2020..2029 and one second before it, and at the present instant.
    @Test(.timeLimit(.minutes(1))) func everySystemZoneMatchesZdump() throws {
        let directory = TimeZoneDatabase.defaultDirectory
        let index = directory + "/tzdata.zi"
        let zdump = ["/usr/bin/zdump", "/usr/sbin/zdump"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard FileManager.default.fileExists(atPath: index), let zdump else {
            print("skipped: needs \(index) (tzdata) and zdump (libc-bin)")
            return
        }
        let names = try String(contentsOfFile: index, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            if fields.first == "Z", fields.count > 1 { return String(fields[1]) }
            if fields.first == "L", fields.count > 2 { return String(fields[2]) }
            return nil
        }
        #expect(names.count > 400)
        var zones: [String: TimeZoneRules] = [:]
        for name in names { zones[name] = try TimeZoneDatabase.load(name) }

        // "Europe/Berlin  Sun Mar 29 00:59:59 2026 UT = Sun Mar 29 01:59:59 2026 CET isdst=0 gmtoff=3600"
        var checked = 0
        for line in try Self.run(zdump, ["-V", "-c", "2020,2030"] + names).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 16, let rules = zones[String(fields[0])], let gmtoff = fields[15].split(separator: "=").last.flatMap({ Int($0) }),
                let utc = Self.seconds(month: fields[2], day: fields[3], time: fields[4], year: fields[5])
            else {
                Issue.record("unexpected zdump line '\(line)'")
                continue
            }
            #expect(rules.offsetSeconds(atUTCMs: utc * 1000) == gmtoff, "\(line)")
            #expect(rules.abbreviation(atUTCMs: utc * 1000) == String(fields[13]), "\(line)")
            checked += 1
        }
        #expect(checked > 5000)

        // Now (zones that never change too): "Etc/GMT+5  Thu Nov 26 05:47:56 2026 -05".
        let before = Int64(Date().timeIntervalSince1970)
        let present = try Self.run(zdump, names)
        let after = Int64(Date().timeIntervalSince1970) + 1
        var seen = 0
        for line in present.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 7, let rules = zones[String(fields[0])],
                let local = Self.seconds(month: fields[2], day: fields[3], time: fields[4], year: fields[5])
            else {
                Issue.record("unexpected zdump line '\(line)'")
                continue
            }
            let offset = Int64(rules.offsetSeconds(atUTCMs: before * 1000))
            #expect(local - after <= offset && offset <= local - before, "\(line): ours \(offset)")
            #expect(rules.abbreviation(atUTCMs: before * 1000) == String(fields[6]), "\(line)")
            seen += 1
        }
        #expect(seen == names.count)
    }
}
