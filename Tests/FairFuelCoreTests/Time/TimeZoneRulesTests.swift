@testable import FairFuelCore
import Foundation
import Testing
import TestSupport

/// TimeZoneRules against real TZif files and glibc's zdump (Fixtures/tzif, PROVENANCE.md there).
@Suite struct TimeZoneRulesTests {
    static let fixtures = PackagePaths.root + "/Tests/FairFuelCoreTests/Fixtures/tzif"
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham", "America/Sao_Paulo"]

    static func bytes(_ zone: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: "\(fixtures)/\(zone.replacingOccurrences(of: "/", with: "_")).tzif")))
    }

    static func rules(_ zone: String) throws -> TimeZoneRules { try TimeZoneRules(name: zone, tzif: bytes(zone)) }

    struct GoldenLine {
        var utcSeconds: Int64
        var offsetSeconds: Int
        var abbreviation: String
        var isDaylightSavingTime: Bool
    }

    /// The zdump lines of `zone`: at each transition and one second before it, 1800..2099.
    static func golden(_ zone: String) throws -> [GoldenLine] {
        let text = try String(contentsOfFile: "\(fixtures)/\(zone.replacingOccurrences(of: "/", with: "_")).zdump", encoding: .utf8)
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, let utc = Int64(fields[0]), let offset = Int(fields[1]) else {
                throw TimeZoneError("bad golden line '\(line)'")
            }
            return GoldenLine(utcSeconds: utc, offsetSeconds: offset, abbreviation: String(fields[2]), isDaylightSavingTime: fields[3] == "1")
        }
    }

    static func ms(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
        UTCDate(year: year, month: month, day: day)!.daysSinceEpoch * 86_400_000 + Int64(hour * 3600 + minute * 60 + second) * 1000
    }

    // MARK: TZif against zdump

    @Test(arguments: zones) func everyGoldenLineMatches(zone: String) throws {
        let rules = try Self.rules(zone)
        let golden = try Self.golden(zone)
        #expect(golden.count > 10)
        for line in golden {
            for ms in [line.utcSeconds * 1000, line.utcSeconds * 1000 + 999] {
                #expect(rules.offsetSeconds(atUTCMs: ms) == line.offsetSeconds, "\(zone) at \(line.utcSeconds)")
                #expect(rules.abbreviation(atUTCMs: ms) == line.abbreviation, "\(zone) at \(line.utcSeconds)")
                #expect(rules.isDaylightSavingTime(atUTCMs: ms) == line.isDaylightSavingTime, "\(zone) at \(line.utcSeconds)")
                #expect(rules.localMs(utcMs: ms) == ms + Int64(line.offsetSeconds) * 1000)
            }
        }
    }

    /// Debian's files list transitions to 2037; the golden lines of 2040..2099 are the footer rule's.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham"])
    func laterYearsComeFromTheFooterRule(zone: String) throws {
        let rules = try Self.rules(zone)
        let lastTransition = try #require(rules.transitionsUTCSeconds.last)
        #expect(rules.rule?.daylight != nil)
        let afterTable = try Self.golden(zone).filter { $0.utcSeconds > lastTransition }
        #expect(afterTable.count >= 2 * 2 * 60, "\(zone): \(afterTable.count) golden lines after the table")
        // The same instants from the footer alone.
        for line in afterTable {
            #expect(rules.rule?.localType(atUTCSeconds: line.utcSeconds).offsetSeconds == line.offsetSeconds)
        }
    }

    @Test func footersAreParsed() throws {
        #expect(try Self.rules("Asia/Kolkata").rule == TimeZonePosixRule(parsing: "IST-5:30"))
        #expect(try Self.rules("America/Sao_Paulo").rule == TimeZonePosixRule(parsing: "<-03>3"))
        #expect(try Self.rules("Pacific/Chatham").rule == TimeZonePosixRule(parsing: "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45"))
    }

    /// RFC 8536: before the first transition, local time type 0 (Berlin's LMT, +0:53:28).
    @Test func beforeTheFirstTransitionTypeZero() throws {
        let berlin = try Self.rules("Europe/Berlin")
        let first = try #require(berlin.transitionsUTCSeconds.first)
        #expect(berlin.offsetSeconds(atUTCMs: (first - 1) * 1000) == 3208)
        #expect(berlin.abbreviation(atUTCMs: Int64.min) == "LMT")
        #expect(berlin.offsetSeconds(atUTCMs: Int64.max) == berlin.rule?.localType(atUTCSeconds: Int64.max / 1000).offsetSeconds)
        _ = berlin.utcMs(localMs: .max)
        _ = berlin.utcMs(localMs: .min)
        _ = berlin.localMs(utcMs: .max)
    }

    /// The version 1 part of a real file, alone, read as a version 1 file: 32-bit times to 2037, no footer.
    /// A wall time the clocks jump over has no instant; `utcMs(localMs:)` reads it past the jump,
    /// so callers that must not guess ask for the gap (Berlin: an hour; Lord Howe: half an hour).
    @Test func gapsAreFoundAndOverlapsAreNot() throws {
        let berlin = try Self.rules("Europe/Berlin")
        let spring = try #require(berlin.gap(containingLocalMs: Self.ms(2026, 3, 29, 2, 30)))
        #expect(spring == WallClockGap(
            fromLocalMs: Self.ms(2026, 3, 29, 2), toLocalMs: Self.ms(2026, 3, 29, 3), offsetBeforeSeconds: 3600, offsetAfterSeconds: 7200))
        #expect(berlin.gap(containingLocalMs: Self.ms(2026, 3, 29, 2)) == spring)
        #expect(berlin.gap(containingLocalMs: Self.ms(2026, 3, 29, 2, 59, 59) + 999) == spring)
        #expect(berlin.gap(containingLocalMs: Self.ms(2026, 3, 29, 1, 59, 59) + 999) == nil)
        #expect(berlin.gap(containingLocalMs: Self.ms(2026, 3, 29, 3)) == nil)
        // The autumn hour exists twice: no gap.
        #expect(berlin.gap(containingLocalMs: Self.ms(2026, 10, 25, 2, 30)) == nil)
        let lordHowe = try Self.rules("Australia/Lord_Howe")
        let halfHour = try #require(lordHowe.gap(containingLocalMs: Self.ms(2026, 10, 4, 2, 10)))
        #expect(halfHour.toLocalMs - halfHour.fromLocalMs == 1_800_000)
        #expect(halfHour.fromLocalMs == Self.ms(2026, 10, 4, 2))
        #expect(TimeZoneRules.utc.gap(containingLocalMs: Self.ms(2026, 3, 29, 2, 30)) == nil)
        for extreme in [Int64.min, Int64.max, Int64.min + 1, Int64.max - 1] { _ = berlin.gap(containingLocalMs: extreme) }
    }

    @Test func versionOneFile() throws {
        let bytes = try Self.bytes("Europe/Berlin")
        func count(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let (isut, isstd, leap, time, type, chars) = (count(20), count(24), count(28), count(32), count(36), count(40))
        var v1 = Array(bytes[0..<(44 + time * 5 + type * 6 + chars + leap * 8 + isstd + isut)])
        v1[4] = 0
        let rules = try TimeZoneRules(name: "Europe/Berlin", tzif: v1)
        #expect(rules.rule == nil)
        for line in try Self.golden("Europe/Berlin") where line.utcSeconds >= -(1 << 31) && line.utcSeconds < (1 << 31) {
            #expect(rules.offsetSeconds(atUTCMs: line.utcSeconds * 1000) == line.offsetSeconds, "at \(line.utcSeconds)")
        }
        // No footer: the last type stays.
        #expect(rules.abbreviation(atUTCMs: Self.ms(2050, 7, 1, 12)) == "CET")
    }

    @Test func utcIsZeroAlways() {
        for ms in [Int64.min, -1, 0, Self.ms(2026, 7, 1, 12), Int64.max] {
            #expect(TimeZoneRules.utc.offsetSeconds(atUTCMs: ms) == 0)
            #expect(TimeZoneRules.utc.abbreviation(atUTCMs: ms) == "UTC")
            #expect(TimeZoneRules.utc.utcMs(localMs: ms) == ms)
            #expect(TimeZoneRules.utc.localMs(utcMs: ms) == ms)
        }
        #expect(TimeZoneRules.utc.name == "UTC")
    }

    // MARK: wall clock to UTC

    /// Every hour of 2026, local to UTC and back, away from the changes (which the next tests cover).
    @Test(arguments: zones) func roundTripsEveryHourOf2026(zone: String) throws {
        let rules = try Self.rules(zone)
        let changes = try Self.golden(zone).map { $0.utcSeconds * 1000 }
        func nearAChange(_ utcMs: Int64) -> Bool { changes.contains { abs($0 - utcMs) <= 3 * 3_600_000 } }
        var checked = 0
        for hour in Int64(0)..<(365 * 24) {
            for minutes: Int64 in [0, 15, 30, 45] {
                let utc = Self.ms(2026, 1, 1, 0) + hour * 3_600_000 + minutes * 60_000 + 123
                guard !nearAChange(utc) else { continue }
                let local = rules.localMs(utcMs: utc)
                #expect(rules.utcMs(localMs: local) == utc, "\(zone) at \(utc)")
                // And from the wall clock's side: the same hour read as local time.
                let wall = Self.ms(2026, 1, 1, 0) + hour * 3_600_000 + minutes * 60_000
                if !nearAChange(wall - Int64(rules.offsetSeconds(atUTCMs: wall)) * 1000) {
                    #expect(rules.localMs(utcMs: rules.utcMs(localMs: wall)) == wall, "\(zone) wall \(wall)")
                }
                checked += 1
            }
        }
        #expect(checked > 34_000)
    }

    @Test func berlin2026GapAndOverlap() throws {
        let berlin = try Self.rules("Europe/Berlin")
        // Spring, 29 March: 02:00..03:00 does not exist; read with CET (+1) it lands as far into CEST.
        #expect(berlin.utcMs(localMs: Self.ms(2026, 3, 29, 1, 59, 59)) == Self.ms(2026, 3, 29, 0, 59, 59))
        #expect(berlin.utcMs(localMs: Self.ms(2026, 3, 29, 2)) == Self.ms(2026, 3, 29, 1))
        #expect(berlin.utcMs(localMs: Self.ms(2026, 3, 29, 2, 30)) == Self.ms(2026, 3, 29, 1, 30))
        #expect(berlin.localMs(utcMs: Self.ms(2026, 3, 29, 1, 30)) == Self.ms(2026, 3, 29, 3, 30))
        #expect(berlin.utcMs(localMs: Self.ms(2026, 3, 29, 3)) == Self.ms(2026, 3, 29, 1))
        // Autumn, 25 October: 02:00..03:00 happens twice; the earlier (CEST, +2) is taken.
        #expect(berlin.utcMs(localMs: Self.ms(2026, 10, 25, 1, 59, 59)) == Self.ms(2026, 10, 24, 23, 59, 59))
        #expect(berlin.utcMs(localMs: Self.ms(2026, 10, 25, 2)) == Self.ms(2026, 10, 25, 0))
        #expect(berlin.utcMs(localMs: Self.ms(2026, 10, 25, 2, 30)) == Self.ms(2026, 10, 25, 0, 30))
        #expect(berlin.utcMs(localMs: Self.ms(2026, 10, 25, 2, 59, 59) + 999) == Self.ms(2026, 10, 25, 0, 59, 59) + 999)
        #expect(berlin.utcMs(localMs: Self.ms(2026, 10, 25, 3)) == Self.ms(2026, 10, 25, 2))
    }

    @Test func newYork2026GapAndOverlap() throws {
        let newYork = try Self.rules("America/New_York")
        // 8 March: 02:00..03:00 does not exist; 02:30 read with EST (-5) is 07:30Z, 03:30 EDT.
        #expect(newYork.utcMs(localMs: Self.ms(2026, 3, 8, 2, 30)) == Self.ms(2026, 3, 8, 7, 30))
        #expect(newYork.utcMs(localMs: Self.ms(2026, 3, 8, 1, 59)) == Self.ms(2026, 3, 8, 6, 59))
        #expect(newYork.utcMs(localMs: Self.ms(2026, 3, 8, 3)) == Self.ms(2026, 3, 8, 7))
        // 1 November: 01:00..02:00 happens twice; the earlier is EDT (-4).
        #expect(newYork.utcMs(localMs: Self.ms(2026, 11, 1, 1, 30)) == Self.ms(2026, 11, 1, 5, 30))
        #expect(newYork.utcMs(localMs: Self.ms(2026, 11, 1, 0, 59)) == Self.ms(2026, 11, 1, 4, 59))
        #expect(newYork.utcMs(localMs: Self.ms(2026, 11, 1, 2)) == Self.ms(2026, 11, 1, 7))
    }

    /// Lord Howe moves its clocks by 30 minutes.
    @Test func lordHowe2026HalfHourGapAndOverlap() throws {
        let lordHowe = try Self.rules("Australia/Lord_Howe")
        // 5 April: DST (+11) ends at 02:00, back to 01:30 (+10:30): 01:30..02:00 twice, the earlier at +11.
        #expect(lordHowe.utcMs(localMs: Self.ms(2026, 4, 5, 1, 45)) == Self.ms(2026, 4, 4, 14, 45))
        #expect(lordHowe.utcMs(localMs: Self.ms(2026, 4, 5, 1, 29)) == Self.ms(2026, 4, 4, 14, 29))
        #expect(lordHowe.utcMs(localMs: Self.ms(2026, 4, 5, 2)) == Self.ms(2026, 4, 4, 15, 30))
        // 4 October: 02:00 (+10:30) jumps to 02:30 (+11): 02:15 read at +10:30 is 15:45Z, 02:45 +11.
        #expect(lordHowe.utcMs(localMs: Self.ms(2026, 10, 4, 2, 15)) == Self.ms(2026, 10, 3, 15, 45))
        #expect(lordHowe.localMs(utcMs: Self.ms(2026, 10, 3, 15, 45)) == Self.ms(2026, 10, 4, 2, 45))
        #expect(lordHowe.utcMs(localMs: Self.ms(2026, 10, 4, 1, 59)) == Self.ms(2026, 10, 3, 15, 29))
        #expect(lordHowe.utcMs(localMs: Self.ms(2026, 10, 4, 2, 30)) == Self.ms(2026, 10, 3, 15, 30))
    }

    // MARK: POSIX rules

    @Test func posixRuleForms() throws {
        let cet = try TimeZoneRules(name: "CET", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(cet.offsetSeconds(atUTCMs: Self.ms(2026, 7, 1, 12)) == 7200)
        #expect(cet.abbreviation(atUTCMs: Self.ms(2026, 7, 1, 12)) == "CEST")
        #expect(cet.offsetSeconds(atUTCMs: Self.ms(2026, 1, 1, 12)) == 3600)
        #expect(cet.offsetSeconds(atUTCMs: Self.ms(2026, 3, 29, 0, 59, 59)) == 3600)
        #expect(cet.offsetSeconds(atUTCMs: Self.ms(2026, 3, 29, 1)) == 7200)
        #expect(cet.offsetSeconds(atUTCMs: Self.ms(2026, 10, 25, 0, 59, 59)) == 7200)
        #expect(cet.offsetSeconds(atUTCMs: Self.ms(2026, 10, 25, 1)) == 3600)

        let eastern = try TimeZoneRules(name: "EST5EDT", posixRule: "EST5EDT,M3.2.0,M11.1.0")
        let newYork = try Self.rules("America/New_York")
        for hour in Int64(0)..<(2 * 365 * 24) {
            let utc = Self.ms(2026, 1, 1, 0) + hour * 3_600_000
            #expect(eastern.offsetSeconds(atUTCMs: utc) == newYork.offsetSeconds(atUTCMs: utc))
            #expect(eastern.abbreviation(atUTCMs: utc) == newYork.abbreviation(atUTCMs: utc))
        }

        for (rule, offset, abbreviation) in [("<+0530>-5:30", 19_800, "+0530"), ("IST-5:30", 19_800, "IST"), ("<-03>3", -10_800, "-03")] {
            let fixed = try TimeZoneRules(name: "X", posixRule: rule)
            for ms in [Int64.min, Self.ms(1900, 1, 1, 0), Self.ms(2026, 7, 1, 0), Int64.max] {
                #expect(fixed.offsetSeconds(atUTCMs: ms) == offset, "\(rule)")
                #expect(fixed.abbreviation(atUTCMs: ms) == abbreviation, "\(rule)")
            }
        }

        // Southern hemisphere: daylight saving time spans the new year.
        let sydney = try TimeZoneRules(name: "Australia/Sydney", posixRule: "AEST-10AEDT,M10.1.0,M4.1.0/3")
        #expect(sydney.abbreviation(atUTCMs: Self.ms(2026, 1, 1, 0)) == "AEDT")
        #expect(sydney.offsetSeconds(atUTCMs: Self.ms(2026, 1, 1, 0)) == 39_600)
        #expect(sydney.offsetSeconds(atUTCMs: Self.ms(2026, 7, 1, 0)) == 36_000)
        // 5 April 2026 03:00 AEDT = 4 April 16:00Z; 4 October 02:00 AEST = 3 October 16:00Z.
        #expect(sydney.offsetSeconds(atUTCMs: Self.ms(2026, 4, 4, 15, 59, 59)) == 39_600)
        #expect(sydney.offsetSeconds(atUTCMs: Self.ms(2026, 4, 4, 16)) == 36_000)
        #expect(sydney.offsetSeconds(atUTCMs: Self.ms(2026, 10, 3, 15, 59, 59)) == 36_000)
        #expect(sydney.offsetSeconds(atUTCMs: Self.ms(2026, 10, 3, 16)) == 39_600)
    }

    /// Jn never counts 29 February; n counts it (from 0).
    @Test func julianAndZeroBasedDays() throws {
        let julian = try TimeZoneRules(name: "J", posixRule: "XST3XDT,J60/0,J300/0")
        let zeroBased = try TimeZoneRules(name: "N", posixRule: "XST3XDT,59/0,299/0")
        for year in [2024, 2025] {
            // J60 is 1 March in every year; 59 is 29 February in a leap year, 1 March otherwise. 00:00 at -3 is 03:00Z.
            #expect(julian.offsetSeconds(atUTCMs: Self.ms(year, 3, 1, 2, 59, 59)) == -10_800)
            #expect(julian.offsetSeconds(atUTCMs: Self.ms(year, 3, 1, 3)) == -7200)
            let day = year == 2024 ? (2, 29) : (3, 1)
            #expect(zeroBased.offsetSeconds(atUTCMs: Self.ms(year, day.0, day.1, 2, 59, 59)) == -10_800)
            #expect(zeroBased.offsetSeconds(atUTCMs: Self.ms(year, day.0, day.1, 3)) == -7200)
        }
    }

    /// RFC 8536's extension: hours outside 0..24 in the transition times.
    @Test func negativeAndLongRuleTimes() throws {
        // Nuuk 2023: starts the last Sunday of March at -02:00 (Saturday 22:00 local), i.e. 01:00Z as the EU.
        let nuuk = try TimeZoneRules(name: "America/Nuuk", posixRule: "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1")
        #expect(nuuk.offsetSeconds(atUTCMs: Self.ms(2026, 3, 29, 0, 59, 59)) == -10_800)
        #expect(nuuk.offsetSeconds(atUTCMs: Self.ms(2026, 3, 29, 1)) == -7200)
        #expect(nuuk.abbreviation(atUTCMs: Self.ms(2026, 3, 29, 1)) == "-02")
        #expect(nuuk.offsetSeconds(atUTCMs: Self.ms(2026, 10, 25, 0, 59, 59)) == -7200)
        #expect(nuuk.offsetSeconds(atUTCMs: Self.ms(2026, 10, 25, 1)) == -10_800)
        // Daylight saving time all year: it ends at 25:00 on 31 December, when the next year's starts.
        let always = try TimeZoneRules(name: "EST5EDT4", posixRule: "EST5EDT4,0/0,J365/25")
        for ms in [Self.ms(2026, 1, 1, 0), Self.ms(2026, 1, 1, 4, 59, 59), Self.ms(2026, 1, 1, 5), Self.ms(2026, 7, 1, 0), Self.ms(2026, 12, 31, 23, 59, 59)] {
            #expect(always.offsetSeconds(atUTCMs: ms) == -14_400, "\(ms)")
        }
        let longTime = try TimeZoneRules(name: "X", posixRule: "XST-2XDT,M3.5.0/167,M10.5.0/-167")
        #expect(longTime.offsetSeconds(atUTCMs: Self.ms(2026, 7, 1, 0)) == 10_800)
    }

    @Test(arguments: [
        "", "CET", "CET-1CEST,M13.5.0,M10.5.0", "%%%garbage", "CE-1", "12", "CET-", "CET-1CEST", "CET-1CEST,M3.5.0",
        "CET-1CEST,M3.5.0,", "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,M0.5.0,M10.5.0",
        "CET-1CEST,J0,J300", "CET-1CEST,J366,J300", "CET-1CEST,366,1", "CET-1CEST,M3.5.0/168,M10.5.0", "CET-25",
        "CET-1:60", "CET-1 ", "CET-1CEST,M3.5.0,M10.5.0x", "<AB>1", "<ABC1", "<A B>1", "CET-1CEST,M3.5.0,M10.5.0/3,",
        "CET-1CEST,M3.5,M10.5.0", "CET-0001",
    ])
    func badPosixRulesThrow(rule: String) {
        let error = #expect(throws: TimeZoneError.self, "'\(rule)'") { try TimeZoneRules(name: "X", posixRule: rule) }
        #expect(error?.description.contains("the TZ rule '\(rule)'") == true, "\(error?.description ?? "")")
    }

    @Test func badRuleSaysWhere() {
        let error = #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", posixRule: "CET-1CEST,M13.5.0,M10.5.0") }
        #expect(error?.description == "the TZ rule 'CET-1CEST,M13.5.0,M10.5.0' has '13.5.0,M10.5' at character 12 where a month 1...12 after M in the start rule was expected")
    }

    // MARK: malformed files

    @Test(arguments: zones) func everyTruncationThrows(zone: String) throws {
        let bytes = try Self.bytes(zone)
        var parsed: [Int] = []
        for length in 0..<bytes.count {
            do {
                _ = try TimeZoneRules(name: zone, tzif: Array(bytes[0..<length]))
                parsed.append(length)
            } catch {}
        }
        #expect(parsed.isEmpty, "\(zone) parsed when cut at \(parsed.prefix(5))")
        #expect(try TimeZoneRules(name: zone, tzif: bytes + [0x41]).name == zone)  // later data is not ours to judge
    }

    @Test func wrongMagicThrows() throws {
        var bytes = try Self.bytes("Europe/Berlin")
        bytes[0] = UInt8(ascii: "X")
        let error = #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", tzif: bytes) }
        #expect(error?.description == "no TZif magic at byte 0: it starts with 'XZif', not 'TZif'")
        let text = Array("# not a zone file\n".utf8) + [UInt8](repeating: 0x20, count: 40)
        #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", tzif: text) }
        var version = try Self.bytes("Europe/Berlin")
        version[4] = UInt8(ascii: "1")
        #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", tzif: version) }
    }

    /// A count at byte `at` (of the first header, or of the second at 44 + the first block) set to `value`.
    static func withCount(_ bytes: [UInt8], at: Int, _ value: UInt32) -> [UInt8] {
        var out = bytes
        for index in 0..<4 { out[at + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        return out
    }

    @Test func absurdCountsThrowWithoutAllocating() throws {
        let bytes = try Self.bytes("Europe/Berlin")
        func count(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let secondHeader = 44 + count(32) * 5 + count(36) * 6 + count(40) + count(28) * 8 + count(24) + count(20)
        for header in [0, secondHeader] {
            for (field, value) in [(32, UInt32(1) << 31), (32, UInt32.max), (36, UInt32.max), (40, UInt32.max), (28, UInt32(1) << 31), (24, UInt32.max), (20, UInt32(1) << 30)] {
                let hostile = Self.withCount(bytes, at: header + field, value)
                let error = #expect(throws: TimeZoneError.self, "count at \(header + field) = \(value)") {
                    try TimeZoneRules(name: "X", tzif: hostile)
                }
                #expect(error?.description.hasPrefix("truncated: ") == true || error?.description.contains("isutcnt") == true, "\(error?.description ?? "")")
            }
            // No local time type, or abbreviations.
            #expect(throws: TimeZoneError("typecnt is 0: a TZif file needs a local time type")) {
                try TimeZoneRules(name: "X", tzif: Self.withCount(bytes, at: header + 36, 0))
            }
            #expect(throws: TimeZoneError("charcnt is 0: a TZif file needs its abbreviations")) {
                try TimeZoneRules(name: "X", tzif: Self.withCount(bytes, at: header + 40, 0))
            }
        }
    }

    @Test func inconsistentDataThrows() throws {
        let bytes = try Self.bytes("Asia/Kolkata")
        func count(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let second = 44 + count(32) * 5 + count(36) * 6 + count(40) + count(28) * 8 + count(24) + count(20)
        let timeCount = count(second + 32)
        let typeCount = count(second + 36)
        let times = second + 44
        let types = times + timeCount * 8
        let records = types + timeCount
        // Transition 1 not after transition 0.
        var unsorted = bytes
        unsorted.replaceSubrange((times + 8)..<(times + 16), with: bytes[times..<(times + 8)])
        #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", tzif: unsorted) }
        // A transition naming a type past typecnt.
        var badType = bytes
        badType[types] = UInt8(typeCount)
        #expect(throws: TimeZoneError("transition 0 names local time type \(typeCount), but typecnt is \(typeCount)")) {
            try TimeZoneRules(name: "X", tzif: badType)
        }
        // isdst 2; an abbreviation index past charcnt.
        var badDST = bytes
        badDST[records + 4] = 2
        #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", tzif: badDST) }
        var badIndex = bytes
        badIndex[records + 5] = 0xFF
        #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", tzif: badIndex) }
        // A footer that is not a rule.
        let footerStart = try #require(bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")))
        let badFooter = Array(bytes[...footerStart]) + Array("IST-5:30x\n".utf8)
        let error = #expect(throws: TimeZoneError.self) { try TimeZoneRules(name: "X", tzif: badFooter) }
        #expect(error?.description.hasPrefix("the footer's the TZ rule 'IST-5:30x'") == true, "\(error?.description ?? "")")
        // An empty footer is no rule: the last type stays.
        let noRule = try TimeZoneRules(name: "X", tzif: Array(bytes[...footerStart]) + [UInt8(ascii: "\n")])
        #expect(noRule.rule == nil)
        #expect(noRule.offsetSeconds(atUTCMs: Self.ms(2090, 1, 1, 0)) == 19_800)
    }

    /// Random byte changes to a real file: each either throws or gives rules whose lookups work.
    @Test func mutatedFilesNeverCrash() throws {
        let original = try Self.bytes("America/New_York")
        var generator = SeededGenerator(seed: 8536)
        var parsed = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            guard let rules = try? TimeZoneRules(name: "X", tzif: bytes) else { continue }
            parsed += 1
            for ms in [Int64.min, -1, 0, Self.ms(2026, 3, 8, 2, 30), Self.ms(2090, 11, 5, 1, 30), Int64.max] {
                _ = rules.offsetSeconds(atUTCMs: ms)
                _ = rules.abbreviation(atUTCMs: ms)
                _ = rules.utcMs(localMs: ms)
            }
        }
        #expect(parsed > 0)
    }
}
