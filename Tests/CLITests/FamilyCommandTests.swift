import Foundation
import Testing
import TestSupport

/// refuel, trips, split, summary, export and report end to end: the real executable on a store
/// built by replaying the sample capture (one trip of Alice's) and entering refuels.
/// Regenerate the golden outputs with: FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter FamilyCommandTests
@Suite(.serialized) struct FamilyCommandTests {
    static let fixtures = PackagePaths.root + "/Tests/CLITests/Fixtures/family"

    /// The refuels entered here run into December 2026: "now", for the check that refuses a refuel
    /// in the future, is after them, whatever day the tests run.
    static func run(_ arguments: [String]) throws -> CommandResult {
        try FairFuelExecutable.run(arguments, environment: ["FAIRFUEL_NOW": "2027-01-01T00:00:00Z"])
    }

    /// Alice, Bob, the sample trip (Alice, 2026-11-20 08:00 UTC) and three refuels around it.
    static func familyStore() throws -> String {
        let db = StoreCommandTests.temporaryDB()
        let setup: [[String]] = [
            ["provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
             "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0"],
            ["provision", "driver", "add", "Bob", "--tag", "04a22b7a"],
            ["replay", PackagePaths.root + "/samples/drive-20s.ffcap"],
            ["refuel", "--at", "2026-11-20T07:00:00Z", "--liters", "42", "--cost", "75.60", "--odometer-km", "12000", "--station", "Total, A6"],
            ["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "1.5", "--cost", "2.71", "--odometer-km", "12001", "--note", "top-up"],
            ["refuel", "add", "--at", "2026-12-02T18:00:00+01:00", "--liters", "30", "--cost", "54.00", "--partial"],
        ]
        for arguments in setup {
            let result = try run(arguments + ["--db", db])
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        }
        return db
    }

    static func expectGolden(_ arguments: [String], _ name: String, db: String) throws {
        let result = try run(arguments + ["--db", db])
        #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        let expected = try Golden.expected(at: fixtures + "/" + name, actual: result.standardOutput)
        #expect(result.standardOutput == expected, "\(arguments) differs from \(name)")
    }

    @Test func outputsMatchTheirGoldenFiles() throws {
        let db = try Self.familyStore()
        try Self.expectGolden(["refuel", "list"], "refuel-list.txt", db: db)
        try Self.expectGolden(["trips"], "trips.txt", db: db)
        try Self.expectGolden(["trips", "--csv"], "trips.csv", db: db)
        try Self.expectGolden(["split"], "split.txt", db: db)
        try Self.expectGolden(["split", "--by", "driver"], "split-by-driver.txt", db: db)
        try Self.expectGolden(["split", "--by", "month", "--json"], "split-by-month.json", db: db)
        try Self.expectGolden(["summary", "--month", "2026-11"], "summary-2026-11.txt", db: db)
        try Self.expectGolden(["summary", "--json"], "summary.json", db: db)
        try Self.expectGolden(["export", "1", "--gpx"], "trip-1.gpx", db: db)
        try Self.expectGolden(["export", "1", "--geojson"], "trip-1.geojson", db: db)
    }

    @Test func splitsSumToTheBillsWhicheverWayTheyAreCut() throws {
        let db = try Self.familyStore()
        let bills = 7_560 + 271 + 5_400
        for by in ["refuel", "driver", "month"] {
            let result = try Self.run(["split", "--by", by, "--json", "--db", db])
            let objects = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as! [[String: Any]]
            let total: Int
            switch by {
            case "refuel": total = objects.flatMap { $0["shares"] as! [[String: Any]] }.reduce(0) { $0 + ($1["cost_cents"] as! Int) }
            case "month":
                total = objects.flatMap { $0["shares"] as! [[String: Any]] }.reduce(0) { $0 + ($1["cost_cents"] as! Int) }
                #expect(objects.map { $0["month"] as! String } == ["2026-11", "2026-12"])
            default: total = objects.reduce(0) { $0 + ($1["cost_cents"] as! Int) }
            }
            #expect(total == bills, "split --by \(by)")
        }
    }

    @Test func tripsFilterByDriverAndDates() throws {
        let db = try Self.familyStore()
        func count(_ arguments: [String]) throws -> Int {
            let result = try Self.run(["trips", "--json", "--db", db] + arguments)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            return (try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as! [Any]).count
        }
        // Alice's trip and the moment of untracked driving before her tap.
        #expect(try count([]) == 2)
        #expect(try count(["--untracked"]) == 1)
        #expect(try count(["--driver", "alice"]) == 1)
        #expect(try count(["--driver", "Bob"]) == 0)
        #expect(try count(["--since", "2026-11-20", "--until", "2026-11-20"]) == 2)
        #expect(try count(["--since", "2026-11-21"]) == 0)
        #expect(try count(["--until", "2026-11-19"]) == 0)
        #expect(try count(["--since", "2026-11-20T08:00:00Z", "--until", "2026-11-20T10:00+01:00"]) == 2)
        #expect(try count(["--until", "2026-11-20T08:00:00Z"]) == 0)
    }

    @Test func removingARefuelResplits() throws {
        let db = try Self.familyStore()
        let before = try Self.run(["split", "--json", "--db", db]).standardOutput
        #expect(before.contains("\"cost_cents\":271"))
        let remove = try Self.run(["refuel", "remove", "2", "--db", db])
        #expect(remove.exitCode == 0, "\(remove.standardError)")
        let after = try JSONSerialization.jsonObject(with: Data(try Self.run(["split", "--json", "--db", db]).standardOutput.utf8)) as! [[String: Any]]
        #expect(after.map { $0["id"] as! Int } == [1, 3])
        // The trip's fuel moves to the next bill.
        let shares = after[1]["shares"] as! [[String: Any]]
        #expect(shares.contains { $0["driver"] as? String == "Alice" })
        let again = try Self.run(["refuel", "remove", "2", "--db", db])
        #expect(again.exitCode != 0)
        #expect(again.standardError.contains("no refuel with id 2"))
    }

    @Test func refuelDefaultsToNowAndAFullTank() throws {
        let db = StoreCommandTests.temporaryDB()
        // A refuel is entered into a store the car's setup made; it creates none.
        #expect(try Self.run(["vehicle", "set", "--name", "Golf", "--db", db]).exitCode == 0)
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let add = try Self.run(["refuel", "--gallons", "10", "--cost", "35", "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        let list = try JSONSerialization.jsonObject(with: Data(try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput.utf8)) as! [[String: Any]]
        let refuel = try #require(list.first)
        #expect(refuel["full"] as? Bool == true)
        #expect(abs((refuel["liters"] as! Double) - 37.854) < 0.001)
        let at = try #require(refuel["at_utc"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let ms = Int64(try #require(formatter.date(from: at)).timeIntervalSince1970 * 1000)
        #expect(ms >= before - 1_000 && ms <= Int64(Date().timeIntervalSince1970 * 1000) + 1_000)
        #expect(refuel["entered_utc"] as? String != nil)
    }

    @Test func nonsenseIsRefusedClearlyAndChangesNothing() throws {
        let db = try Self.familyStore()
        let cases: [([String], String)] = [
            (["refuel", "--at", "2026-11-25T10:00Z", "--liters=-4", "--cost", "5"], "'-4' is out of range: 0.1 to 500 L"),
            (["refuel", "--at", "2026-11-25T10:00Z", "--liters", "80", "--cost", "150"], "80.0 L is more than the 55.0 L tank"),
            (["refuel", "--at", "2026-11-25T10:00Z", "--liters", "4", "--cost=-5"], "'-5' is out of range: 0 to 100000"),
            (["refuel", "--at", "2026-11-20T07:00:30Z", "--liters", "4", "--cost", "5"], "a refuel at that moment is already recorded"),
            (["refuel", "--at", "2026-11-25T10:00Z", "--liters", "4", "--cost", "5", "--odometer-km", "11990"], "the odometer goes backwards"),
            (["refuel", "--at", "2026-11-25T10:00Z", "--liters", "4", "--gallons", "1", "--cost", "5"], "--liters and --gallons are exclusive"),
            (["refuel", "--at", "2026-11-25T10:00Z", "--cost", "5"], "--liters or --gallons"),
            (["refuel", "--at", "2026-11-25T10:00Z", "--liters", "4", "--cost", "5", "--fuel", "diesel"], "runs on petrol, not diesel"),
            (["refuel", "--at", "yesterday", "--liters", "4", "--cost", "5"], "not an ISO 8601 date-time"),
            (["trips", "--driver", "Carol"], "no driver named 'Carol'"),
            (["trips", "--since", "2026-11-31"], "--since"),
            (["trips", "--since", "2026-11-21", "--until", "2026-11-20"], "--until must come after --since"),
            (["trips", "--json", "--csv"], "exclusive"),
            (["summary", "--month", "2026-13"], "is not a month"),
            (["split", "--by", "week"], "week"),
            (["export", "99", "--gpx"], "no trip with id 99"),
            (["export", "1"], "--gpx or --geojson"),
            (["report", "--html", "/no/such/dir/report.html"], "cannot create /no/such/dir/report.html"),
        ]
        let before = try Self.run(["refuel", "list", "--db", db]).standardOutput
        for (arguments, message) in cases {
            let result = try Self.run(arguments + ["--db", db])
            #expect(result.exitCode != 0, "\(arguments) should fail")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        #expect(try Self.run(["refuel", "list", "--db", db]).standardOutput == before)
    }

    @Test func imperialVehiclesReadMilesGallonsAndDollars() throws {
        let db = try Self.familyStore()
        #expect(try Self.run(["vehicle", "set", "--units", "imperial", "--db", db]).exitCode == 0)
        try Self.expectGolden(["trips", "--csv"], "trips-imperial.csv", db: db)
        let summary = try Self.run(["summary", "--db", db]).standardOutput
        #expect(summary.contains(" mi ") && summary.contains("mpg"))
        let list = try Self.run(["refuel", "list", "--db", db]).standardOutput
        #expect(list.contains("7456 mi"))  // 12 000 km
    }

    /// `--units uk`: miles, imperial gallons and UK mpg, in the trips table and the summary
    /// (golden files), the CSV header and the fuel log; a unit system it does not know is refused.
    @Test func ukVehiclesReadMilesImperialGallonsAndUKMPG() throws {
        let db = try Self.familyStore()
        let set = try Self.run(["vehicle", "set", "--units", "uk", "--db", db])
        #expect(set.exitCode == 0, "\(set.standardError)")
        try Self.expectGolden(["trips"], "trips-uk.txt", db: db)
        try Self.expectGolden(["summary", "--month", "2026-11"], "summary-uk-2026-11.txt", db: db)
        let csv = try Self.run(["trips", "--csv", "--db", db]).standardOutput
        #expect(csv.hasPrefix("id,driver,start_utc,end_utc,end_reason,distance_mi,duration_s,moving_s,idle_s,harsh_accel,harsh_brake,max_speed_mph,fuel_uk_gal,"))
        let list = try Self.run(["refuel", "list", "--db", db]).standardOutput
        #expect(list.contains("gal (UK)") && list.contains("9.24") && list.contains("7456 mi"), "42 L, 12 000 km: \(list)")
        #expect(try Self.run(["vehicle", "show", "--db", db]).standardOutput.contains("uk"))
        let refused = try Self.run(["vehicle", "set", "--units", "us", "--db", db])
        #expect(refused.exitCode != 0 && refused.standardError.contains("--units must be metric, imperial (US gallons) or uk (imperial gallons)"))
    }

    /// A UK family reads "10.00 gal" off the pump: 45.46 L, not the 37.85 L of US gallons.
    @Test func gallonsTypedForAUKVehicleAreImperialGallons() throws {
        let db = StoreCommandTests.temporaryDB()
        #expect(try Self.run(["vehicle", "set", "--name", "Focus", "--units", "uk", "--db", db]).exitCode == 0)
        let add = try Self.run(["refuel", "--gallons", "10", "--cost", "65", "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        #expect(add.standardOutput.contains("10.00 gal (UK)"), "\(add.standardOutput)")
        let edit = try Self.run(["refuel", "edit", "1", "--gallons", "8", "--db", db])
        #expect(edit.exitCode == 0, "\(edit.standardError)")
        let list = try JSONSerialization.jsonObject(with: Data(try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput.utf8)) as! [[String: Any]]
        #expect(abs((try #require(list.first?["liters"] as? Double)) - 36.369) < 0.001, "8 imperial gallons: \(list)")
    }

    @Test func exportWritesAFileAndReportWritesAPage() throws {
        let db = try Self.familyStore()
        let directory = NSTemporaryDirectory() + "fairfuel-family-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gpx = directory + "/trip.gpx"
        let export = try Self.run(["export", "1", "--gpx", "--out", gpx, "--db", db])
        #expect(export.exitCode == 0, "\(export.standardError)")
        #expect(export.standardOutput.contains("written to \(gpx)"))
        #expect(try String(contentsOfFile: gpx, encoding: .utf8) == (try String(contentsOfFile: Self.fixtures + "/trip-1.gpx", encoding: .utf8)))
        let html = directory + "/report.html"
        let report = try Self.run(["report", "--html", html, "--db", db])
        #expect(report.exitCode == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("report for 2026-12"))
        let november = try Self.run(["report", "--html", html, "--month", "2026-11", "--db", db])
        #expect(november.standardOutput.contains("1 trip(s)"))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<svg") && page.contains("Alice") && !page.contains("<script"))
    }
}
