import Foundation
import Testing
import TestSupport

/// `trips assign|delete`, `refuel edit|settle`, `vehicle set --untracked --from` and two currencies,
/// end to end through the real executable and a real store: after every step each bill's shares
/// sum to it to the cent, and bad input changes nothing.
@Suite(.serialized) struct FamilyBookCommandTests {
    /// The refuels entered here run into December 2026: "now", for the check that refuses a refuel
    /// in the future, is after them, whatever day the tests run.
    static func run(_ arguments: [String]) throws -> CommandResult {
        try FairFuelExecutable.run(arguments, environment: ["FAIRFUEL_NOW": "2027-01-01T00:00:00Z"])
    }

    static func json(_ arguments: [String], db: String) throws -> Any {
        let result = try run(arguments + ["--db", db])
        #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    }

    /// Alice, Bob and Cara; the sample replayed twice (trip 1 closed by the second run's start, trip 2
    /// open), each with its moment of untracked driving; the baseline fill, a bill after the trips, one in December.
    static func store() throws -> String {
        let db = StoreCommandTests.temporaryDB()
        let setup: [[String]] = [
            ["provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
             "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0"],
            ["provision", "driver", "add", "Bob", "--tag", "04a22b7a"],
            ["provision", "driver", "add", "Cara"],
            ["replay", PackagePaths.root + "/samples/drive-20s.ffcap"],
            // The same drive again, as a second trip (asked for: a capture is replayed once by default).
            ["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again"],
            ["refuel", "--at", "2026-11-20T07:00:00Z", "--liters", "42", "--cost", "75.60", "--odometer-km", "12000"],
            ["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "1.5", "--cost", "2.71", "--odometer-km", "12001"],
            ["refuel", "--at", "2026-12-02T17:00:00Z", "--liters", "30", "--cost", "54.00", "--partial"],
        ]
        for arguments in setup {
            let result = try run(arguments + ["--db", db])
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        }
        return db
    }

    /// Every bill's shares sum to its cost.
    static func expectBillsAddUp(_ db: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let splits = try json(["split", "--json"], db: db) as! [[String: Any]]
        for split in splits {
            let shares = split["shares"] as! [[String: Any]]
            #expect(shares.reduce(0) { $0 + ($1["cost_cents"] as! Int) } == split["cost_cents"] as! Int,
                    "bill \(split["id"]!) does not add up", sourceLocation: sourceLocation)
        }
    }

    static func trips(_ db: String, _ extra: [String] = []) throws -> [[String: Any]] {
        try json(["trips", "--json"] + extra, db: db) as! [[String: Any]]
    }

    @Test func untrackedDrivingIsListedAssignedAndTripsDeleted() throws {
        let db = try Self.store()
        let untracked = try Self.trips(db, ["--untracked"])
        #expect(untracked.count == 2)
        #expect(untracked.allSatisfy { ($0["id"] as? String)?.hasPrefix("u") == true && $0["driver"] is NSNull && $0["end_reason"] is NSNull })
        let table = try Self.run(["trips", "--db", db]).standardOutput
        #expect(table.contains("(untracked)") && table.contains("avg km/h"))
        let first = untracked[0]["id"] as! String

        // Untracked driving to Cara, as JSON: the bill it fell in moves, before and after.
        let assign = try Self.json(["trips", "assign", first, "cara", "--json"], db: db) as! [String: Any]
        let assigned = (assign["trips"] as! [[String: Any]])[0]
        #expect(assigned["trip"] as? String == first)
        #expect(assigned["driver"] as? String == "Cara")
        let session = try #require(assigned["session"] as? Int)
        let bills = assign["bills"] as! [[String: Any]]
        #expect(bills.map { $0["refuel_id"] as! Int } == [2])
        let shares = bills[0]["shares"] as! [[String: Any]]
        #expect(shares.contains { $0["driver"] as? String == "Cara" && $0["before_cents"] is NSNull && ($0["after_cents"] as? Int ?? 0) >= 0 })
        #expect(shares.reduce(0) { $0 + ($1["after_cents"] as? Int ?? 0) } == 271)
        #expect(shares.reduce(0) { $0 + ($1["before_cents"] as? Int ?? 0) } == 271)
        #expect(try Self.trips(db).contains { $0["id"] as? Int == session && $0["end_reason"] as? String == "assigned" })
        try Self.expectBillsAddUp(db)
        // Its motion was never measured: "-" in the table and empty in CSV, not zeros; no track to export.
        let row = try #require(try Self.run(["trips", "--db", db]).standardOutput.split(separator: "\n").first { $0.hasPrefix("\(session) ") })
        #expect(row.split(separator: " ").filter { $0 == "-" }.count == 3, "idle, harsh and top speed: \(row)")
        let csv = try Self.run(["trips", "--csv", "--db", db]).standardOutput.split(separator: "\r\n")
        let csvRow = try #require(csv.first { $0.hasPrefix("\(session),") }).split(separator: ",", omittingEmptySubsequences: false)
        #expect(csvRow[7...11].allSatisfy { $0.isEmpty }, "moving, idle, harsh and top speed: \(csvRow)")
        let export = try Self.run(["export", String(session), "--gpx", "--db", db])
        #expect(export.exitCode == 1)
        #expect(export.standardError.contains("trip \(session) has no track to export: it was untracked driving given to Cara afterwards"))

        // Alice's closed trip was Bob's; the rest of the untracked driving is his too, as a range.
        let move = try Self.run(["trips", "assign", "1", "BOB", "--db", db])
        #expect(move.exitCode == 0, "\(move.standardError)")
        #expect(move.standardOutput.contains("trip 1: Alice -> Bob"))
        #expect(move.standardOutput.contains("bill 2 of 2026-11-20 09:00, 2.71 EUR re-split:"))
        #expect(move.standardOutput.contains("->"))
        try Self.expectBillsAddUp(db)
        let references = try Self.trips(db).map { "\($0["id"]!)" }
        let last = try #require(Self.trips(db, ["--untracked"]).first?["id"] as? String)
        let range = "\(references[0])-\(last)"
        let ranged = try Self.run(["trips", "assign", range, "Bob", "--db", db])
        #expect(ranged.exitCode == 0, "\(range): \(ranged.standardError)")
        #expect(try Self.trips(db, ["--untracked"]).isEmpty)
        try Self.expectBillsAddUp(db)

        // Deleting trip 1: gone with its track, its fuel kept as untracked driving, and said so.
        let delete = try Self.run(["trips", "delete", "1", "--db", db])
        #expect(delete.exitCode == 0, "\(delete.standardError)")
        #expect(delete.standardOutput.contains("deleted with its track; its fuel stays in the books as untracked driving u"))
        #expect(try !Self.trips(db).contains { $0["id"] as? Int == 1 })
        #expect(try Self.trips(db, ["--untracked"]).count == 1)
        #expect(try Self.run(["export", "1", "--gpx", "--db", db]).exitCode != 0)
        try Self.expectBillsAddUp(db)
        let deleteJSON = try Self.json(["trips", "delete", "\(session)", "--json"], db: db) as! [String: Any]
        #expect(deleteJSON["deleted"] as? String == "\(session)")
        #expect((deleteJSON["untracked"] as? [String])?.count == 1)
        try Self.expectBillsAddUp(db)
    }

    @Test func badCorrectionsFailClearlyAndChangeNothing() throws {
        let db = try Self.store()
        #expect(try Self.run(["provision", "driver", "remove", "Cara", "--db", db]).exitCode == 0)
        let untracked = try #require(Self.trips(db, ["--untracked"]).first?["id"] as? String)
        let cases: [([String], String)] = [
            (["trips", "assign", "99", "Bob"], "no trip 99"),
            (["trips", "assign", "u99", "Bob"], "no trip u99"),
            (["trips", "assign", "1", "Zed"], "no driver named 'Zed'"),
            (["trips", "assign", "1", "Cara"], "Cara was removed"),
            (["trips", "assign", "2", "Bob"], "still being driven"),
            (["trips", "assign", "x1", "Bob"], "'x1' is not a trip"),
            (["trips", "assign", "2-1", "Bob"], "runs backwards"),
            (["trips", "assign", "1,,2", "Bob"], "is not a trip"),
            (["trips", "delete", untracked], "stays in the books"),
            (["trips", "delete", "2"], "still being driven"),
            (["trips", "delete", "abc"], "'abc' is not a trip id"),
            (["refuel", "edit", "2", "--cost", "abc"], "--cost"),
            (["refuel", "edit", "2", "--liters", "0"], "must be more than 0"),
            (["refuel", "edit", "2", "--liters", "99", "--cost", "180"], "is more than the 55.0 L tank"),
            (["refuel", "edit", "9", "--liters", "3"], "no refuel with id 9"),
            (["refuel", "edit", "2"], "nothing to change"),
            (["refuel", "edit", "2", "--full", "--partial"], "exclusive"),
            (["refuel", "edit", "2", "--odometer-km", "11000"], "the odometer goes backwards"),
            (["refuel", "settle"], "say which bills"),
            (["refuel", "settle", "9"], "no refuel with id 9"),
            (["refuel", "settle", "--month", "2025-01"], "no refuel in 2025-01"),
            (["vehicle", "set", "--from", "2026-11-01"], "--from goes with --untracked"),
            (["vehicle", "set", "--untracked", "pro_rata", "--from", "soon"], "--from"),
        ]
        let books = try Self.run(["split", "--json", "--db", db]).standardOutput
        let trips = try Self.run(["trips", "--json", "--db", db]).standardOutput
        let log = try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput
        for (arguments, message) in cases {
            let result = try Self.run(arguments + ["--db", db])
            #expect(result.exitCode != 0, "\(arguments) should fail")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        #expect(try Self.run(["split", "--json", "--db", db]).standardOutput == books)
        #expect(try Self.run(["trips", "--json", "--db", db]).standardOutput == trips)
        #expect(try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput == log)
    }

    @Test func settledBillsAndPoliciesAndCorrections() throws {
        let db = try Self.store()
        let settle = try Self.run(["refuel", "settle", "--month", "2026-11", "--db", db])
        #expect(settle.exitCode == 0, "\(settle.standardError)")
        #expect(settle.standardOutput.contains("settled: refuel(s) 1, 2; they never change again"))
        let settledBooks = try Self.run(["split", "--json", "--db", db]).standardOutput
        #expect(settledBooks.contains("\"settled_utc\":\"20"))

        // Trip 1 lies in bill 2: moving it asks for --force, and changes nothing.
        let refused = try Self.run(["trips", "assign", "1", "Bob", "--db", db])
        #expect(refused.exitCode != 0)
        #expect(refused.standardError.contains("settled bill(s) 2") && refused.standardError.contains("--force"))
        #expect(try Self.run(["refuel", "edit", "2", "--liters", "2", "--db", db]).standardError.contains("settled"))
        let forced = try Self.run(["trips", "assign", "1", "Bob", "--force", "--db", db])
        #expect(forced.exitCode == 0, "\(forced.standardError)")
        #expect(forced.standardOutput.contains("settled, kept as it was (--force)"))
        #expect(try Self.run(["split", "--json", "--db", db]).standardOutput == settledBooks)

        // The policy from a date: settled bills are left out and said so; the December bill moves to pro rata.
        let policy = try Self.run(["vehicle", "set", "--untracked", "pro_rata", "--from", "2026-11-01", "--db", db])
        #expect(policy.exitCode == 0, "\(policy.standardError)")
        #expect(policy.standardOutput.contains("untracked driving: pro_rata for 1 bill(s) and those to come"))
        #expect(policy.standardOutput.contains("settled bills left as they are: 1, 2"))
        let log = try Self.json(["refuel", "list", "--json"], db: db) as! [[String: Any]]
        #expect(log.map { $0["untracked_policy"] as? String } == ["owner", "owner", "pro_rata"])

        // A correction of an open bill: re-split, before and after printed.
        let edit = try Self.run(["refuel", "edit", "3", "--cost", "55.10", "--full", "--db", db])
        #expect(edit.exitCode == 0, "\(edit.standardError)")
        #expect(edit.standardOutput.contains("bill 3 of 2026-12-02 17:00, 55.10 EUR re-split:"))
        #expect(edit.standardOutput.contains("54.00") && edit.standardOutput.contains("55.10"))
        try Self.expectBillsAddUp(db)
    }

    /// A refuel forgotten inside a settled bill's period: refused with or without --force, naming the
    /// bill and the way out; `refuel unsettle` re-splits the bill, and the refuel can then go in.
    @Test func aRefuelInsideASettledBillIsRefusedUntilItIsUnsettled() throws {
        let db = try Self.store()
        #expect(try Self.run(["refuel", "settle", "2", "--db", db]).exitCode == 0)
        let books = try Self.run(["split", "--json", "--db", db]).standardOutput
        let log = try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput
        let attempts: [[String]] = [
            ["refuel", "--at", "2026-11-20T08:00:10Z", "--liters", "1", "--cost", "1.80"],
            ["refuel", "--at", "2026-11-20T08:00:10Z", "--liters", "1", "--cost", "1.80", "--force"],
            ["refuel", "edit", "3", "--at", "2026-11-20T08:30:00Z", "--force"],
            ["refuel", "edit", "1", "--at", "2026-11-20T08:30:00Z", "--force"],
        ]
        for arguments in attempts {
            let refused = try Self.run(arguments + ["--db", db])
            #expect(refused.exitCode == 1, "\(arguments): \(refused.standardOutput)")
            #expect(refused.standardError.contains("falls inside settled bill 2 (the refuel of 2026-11-20T09:00:00"), "\(refused.standardError)")
            #expect(refused.standardError.contains("since the refuel of 2026-11-20T0"), "\(refused.standardError)")
            #expect(refused.standardError.contains("refused even when confirmed, and nothing was changed"))
            #expect(refused.standardError.contains("`fairfuel refuel unsettle 2`"))
        }
        #expect(try Self.run(["split", "--json", "--db", db]).standardOutput == books)
        #expect(try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput == log)
        // Removing the refuel before it widens its period: a split that moves, asked for --force as ever.
        let widen = try Self.run(["refuel", "remove", "1", "--db", db])
        #expect(widen.exitCode == 1 && widen.standardError.contains("settled bill(s) 2"), "\(widen.standardError)")
        #expect(widen.standardError.contains("`fairfuel refuel unsettle 2`"))

        // Unsettled: re-split from the data (here what it was), then the refuel goes in and moves it.
        let unsettle = try Self.run(["refuel", "unsettle", "2", "3", "--db", db])
        #expect(unsettle.exitCode == 0, "\(unsettle.standardError)")
        #expect(unsettle.standardOutput == "unsettled: refuel(s) 2; re-split from the data\nno bill changed\nnot settled: 3\n", "\(unsettle.standardOutput)")
        let open = try Self.json(["refuel", "list", "--json"], db: db) as! [[String: Any]]
        #expect(open.allSatisfy { $0["settled_utc"] == nil || $0["settled_utc"] is NSNull }, "\(open)")
        let add = try Self.run(["refuel", "--at", "2026-11-20T08:00:10Z", "--liters", "1", "--cost", "1.80", "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        #expect(add.standardOutput.contains("other bills re-split:\nbill 2 of 2026-11-20 09:00, 2.71 EUR re-split:"), "\(add.standardOutput)")
        try Self.expectBillsAddUp(db)
    }

    /// `refuel unsettle` of a bill a forced correction left behind: each share before and after, as
    /// JSON too; its mistakes are refused as `settle`'s are, changing nothing.
    @Test func unsettleReSplitsABillAForcedCorrectionLeftBehind() throws {
        let db = try Self.store()
        #expect(try Self.run(["refuel", "settle", "--month", "2026-11", "--db", db]).exitCode == 0)
        #expect(try Self.run(["trips", "assign", "1", "Bob", "--force", "--db", db]).exitCode == 0)
        let settledBooks = try Self.run(["split", "--json", "--db", db]).standardOutput
        for (arguments, message) in [
            (["refuel", "unsettle"], "say which bills"),
            (["refuel", "unsettle", "2", "--month", "2026-11"], "say which bills"),
            (["refuel", "unsettle", "9"], "no refuel with id 9"),
            (["refuel", "unsettle", "2", "9"], "no refuel with id 9"),
            (["refuel", "unsettle", "--month", "2025-01"], "no refuel in 2025-01"),
        ] {
            let result = try Self.run(arguments + ["--db", db])
            #expect(result.exitCode == (try Self.run(arguments.map { $0 == "unsettle" ? "settle" : $0 } + ["--db", db]).exitCode))
            #expect(result.exitCode != 0 && result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        #expect(try Self.run(["split", "--json", "--db", db]).standardOutput == settledBooks)

        let unsettle = try Self.run(["refuel", "unsettle", "--month", "2026-11", "--db", db])
        #expect(unsettle.exitCode == 0, "\(unsettle.standardError)")
        let lines = unsettle.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "unsettled: refuel(s) 1, 2; re-split from the data", "\(unsettle.standardOutput)")
        #expect(lines.contains("bill 2 of 2026-11-20 09:00, 2.71 EUR re-split:"), "\(unsettle.standardOutput)")
        // Trip 1 is Bob's now, the open trip 2 still Alice's: the two halve the bill the settled split gave Alice.
        #expect(lines.contains("    Alice             2.63      -> 1.32      (0.06 L -> 0.03 L)"), "\(unsettle.standardOutput)")
        #expect(lines.contains("    Bob               -         -> 1.31      (- -> 0.03 L)"), "\(unsettle.standardOutput)")
        #expect(!unsettle.standardOutput.contains("not settled"))
        try Self.expectBillsAddUp(db)
        // Settled again and unsettled as JSON: nothing moves now.
        #expect(try Self.run(["refuel", "settle", "2", "--db", db]).exitCode == 0)
        let json = try Self.run(["refuel", "unsettle", "2", "--json", "--db", db])
        #expect(json.exitCode == 0 && json.standardOutput == "[]\n", "\(json.standardOutput)")
    }

    @Test func aRefuelEnteredLateSaysWhichBillsItMoved() throws {
        let db = try Self.store()
        let add = try Self.run(["refuel", "--at", "2026-11-20T08:00:10Z", "--liters", "1", "--cost", "1.80", "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        #expect(add.standardOutput.contains("other bills re-split:\nbill 2 of 2026-11-20 09:00, 2.71 EUR re-split:"), "\(add.standardOutput)")
        try Self.expectBillsAddUp(db)
        let atTheEnd = try Self.run(["refuel", "--at", "2026-12-20T08:00:00Z", "--liters", "1", "--cost", "1.80", "--db", db])
        #expect(!atTheEnd.standardOutput.contains("other bills"), "\(atTheEnd.standardOutput)")
    }

    @Test func billsKeepTheirCurrencyAndTotalsNeverAddTwo() throws {
        let db = try Self.store()
        #expect(try Self.run(["vehicle", "set", "--currency", "usd", "--db", db]).exitCode == 0)
        let add = try Self.run(["refuel", "--at", "2026-12-10T10:00:00Z", "--liters", "20", "--cost", "40.00", "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        let byDriver = try Self.json(["split", "--by", "driver", "--json"], db: db) as! [[String: Any]]
        let currencies = Set(byDriver.compactMap { $0["currency"] as? String })
        #expect(currencies == ["EUR", "USD"])
        let eur = byDriver.filter { $0["currency"] as? String == "EUR" }.reduce(0) { $0 + ($1["cost_cents"] as! Int) }
        let usd = byDriver.filter { $0["currency"] as? String == "USD" }.reduce(0) { $0 + ($1["cost_cents"] as! Int) }
        #expect(eur == 7_560 + 271 + 5_400)
        #expect(usd == 4_000)
        let month = try Self.run(["split", "--by", "month", "--db", db]).standardOutput
        #expect(month.contains("2026-12  54.00 EUR, 40.00 USD"))
        let summary = try Self.run(["summary", "--db", db]).standardOutput
        #expect(summary.contains("bills 40.00 USD"))
        #expect(summary.contains("bills in EUR (not added): 132.31 EUR"))
        let split = try Self.run(["split", "--db", db]).standardOutput
        #expect(split.contains("54.00 EUR") && split.contains("40.00 USD"))
        // The fuel log's USD column names the bills paid in euros rather than pass them for dollars.
        let log = try Self.run(["refuel", "list", "--db", db]).standardOutput.split(separator: "\n")
        #expect(log.first?.contains("USD") == true)
        #expect(log.contains { $0.contains("75.60 EUR") } && log.contains { $0.contains("54.00 EUR") }, "\(log)")
        let dollars = try #require(log.first { $0.contains("40.00") })
        #expect(!dollars.contains("EUR") && !dollars.contains("40.00 USD"), "the vehicle's own currency is the column's: \(dollars)")
    }
}
