import Foundation
import Testing
import TestSupport

/// `vehicle set --time-zone`: what the family reads is on their wall clock and calendar, what is
/// stored and exported as JSON stays UTC. The family store of `FamilyCommandTests` (Alice's trip
/// at 2026-11-20 08:00 UTC) in Honolulu (UTC−10, no daylight saving time): the trip is on the
/// 19th there, at 22:00. Needs the system's zone files (tzdata, installed by scripts/install-deps.sh).
/// Regenerate the golden outputs with: FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter TimeZoneCommandTests
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Pacific/Honolulu")))
struct TimeZoneCommandTests {
    static let fixtures = PackagePaths.root + "/Tests/CLITests/Fixtures/family"

    /// A refuel entered here is dated 2026-12-01 UTC: "now", for the check that refuses a refuel in the
    /// future, is after it, whatever day the tests run.
    static func run(_ arguments: [String]) throws -> CommandResult {
        try FairFuelExecutable.run(arguments, environment: ["FAIRFUEL_NOW": "2027-01-01T00:00:00Z"])
    }

    static func honoluluStore() throws -> String {
        let db = try FamilyCommandTests.familyStore()
        let set = try run(["vehicle", "set", "--time-zone", "Pacific/Honolulu", "--db", db])
        #expect(set.exitCode == 0, "\(set.standardError)")
        #expect(set.standardOutput.contains("times shown in Pacific/Honolulu (HST, UTC-10:00 now)"), "\(set.standardOutput)")
        return db
    }

    @Test func tablesAndReportsShowTheFamilysLocalTime() throws {
        let db = try Self.honoluluStore()
        try FamilyCommandTests.expectGolden(["trips"], "honolulu-trips.txt", db: db)
        try FamilyCommandTests.expectGolden(["refuel", "list"], "honolulu-refuel-list.txt", db: db)
        try FamilyCommandTests.expectGolden(["split"], "honolulu-split.txt", db: db)
        try FamilyCommandTests.expectGolden(["summary", "--month", "2026-11"], "honolulu-summary-2026-11.txt", db: db)
        let show = try Self.run(["vehicle", "show", "--db", db])
        #expect(show.standardOutput.contains("\ntime zone Pacific/Honolulu\n"))
        // JSON stays UTC: the same instants as without a zone.
        let trips = try Self.run(["trips", "--json", "--db", db]).standardOutput
        #expect(trips.contains("\"start_utc\":\"2026-11-20T08:00"), "\(trips)")
        let gpx = try Self.run(["export", "1", "--gpx", "--db", db]).standardOutput
        #expect(gpx.contains("<name>Trip 1, Alice, 2026-11-19 22:00 Pacific/Honolulu</name>"), "\(gpx.prefix(400))")
    }

    @Test func datesTypedAreTheFamilysDays() throws {
        let db = try Self.honoluluStore()
        func count(_ arguments: [String]) throws -> Int {
            let result = try Self.run(["trips", "--json", "--db", db] + arguments)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            return (try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as! [Any]).count
        }
        // In UTC these are the 20th; in Honolulu the 19th.
        #expect(try count(["--since", "2026-11-19", "--until", "2026-11-19"]) == 2)
        #expect(try count(["--since", "2026-11-20"]) == 0)
        // A zone in the text still wins.
        #expect(try count(["--since", "2026-11-20T00:00Z"]) == 2)

        // A refuel typed without a zone is at Honolulu's wall clock: 20:00 on the 30th is 06:00 UTC on 1 December.
        let add = try Self.run(["refuel", "--at", "2026-11-30T20:00", "--liters", "5", "--cost", "9", "--partial", "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        let list = try JSONSerialization.jsonObject(with: Data(try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput.utf8)) as! [[String: Any]]
        let added = try #require(list.first { ($0["cost_cents"] as? Int) == 900 })
        #expect((added["at_utc"] as? String)?.hasPrefix("2026-12-01T06:00:00") == true, "\(added)")
        // It belongs to November on the family's calendar: summaries, month splits and settling by month agree.
        let months = try JSONSerialization.jsonObject(with: Data(try Self.run(["split", "--by", "month", "--json", "--db", db]).standardOutput.utf8)) as! [[String: Any]]
        #expect(months.map { $0["month"] as! String } == ["2026-11", "2026-12"])
        let november = try #require(months.first)
        #expect((november["shares"] as! [[String: Any]]).reduce(0) { $0 + ($1["cost_cents"] as! Int) } == 7_560 + 271 + 900)
        let settle = try Self.run(["refuel", "settle", "--month", "2026-11", "--db", db])
        #expect(settle.exitCode == 0, "\(settle.standardError)")
        #expect(settle.standardOutput.contains("settled: refuel(s) 1, 2, 4"), "\(settle.standardOutput)")
    }

    @Test func aZoneThisMachineCannotReadIsRefused() throws {
        let db = try FamilyCommandTests.familyStore()
        for (zone, message) in [
            ("Europe/Berln", "unknown time zone 'Europe/Berln'"),
            ("../../etc/passwd", "is not a time zone name"),
        ] {
            let result = try Self.run(["vehicle", "set", "--time-zone", zone, "--db", db])
            #expect(result.exitCode != 0, "\(zone)")
            #expect(result.standardError.contains(message), "\(zone): \(result.standardError)")
        }
        #expect(try Self.run(["vehicle", "show", "--db", db]).standardOutput.contains("\ntime zone UTC\n"), "nothing changed")
        // Back to UTC.
        #expect(try Self.run(["vehicle", "set", "--time-zone", "Europe/Berlin", "--db", db]).exitCode == 0)
        let utc = try Self.run(["vehicle", "set", "--time-zone", "UTC", "--db", db])
        #expect(utc.standardOutput.contains("times shown in UTC"))
        try FamilyCommandTests.expectGolden(["trips"], "trips.txt", db: db)
    }
}
