import Foundation
import Testing
import TestSupport

/// `refuel add --baseline` and the rule each bill was split by, end to end through the real
/// executable and a real store: the mark is listed and removable, the bill after it is ordinary,
/// and what a mark cannot be is refused with a clear message, changing nothing.
@Suite(.serialized) struct BaselineMarkCommandTests {
    static func run(_ arguments: [String], db: String) throws -> CommandResult {
        try FairFuelExecutable.run(arguments + ["--db", db], environment: ["FAIRFUEL_NOW": "2027-01-01T00:00:00Z"])
    }

    static func json(_ arguments: [String], db: String) throws -> Any {
        let result = try run(arguments, db: db)
        #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    }

    @Test func aMarkMakesTheNextBillOrdinaryAndEveryViewSaysWhichRuleABillWentBy() throws {
        let db = StoreCommandTests.temporaryDB()
        for arguments in [
            ["provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
             "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0"],
            ["replay", PackagePaths.root + "/samples/drive-20s.ffcap"],
        ] {
            let result = try Self.run(arguments, db: db)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        }
        // The technician filled up before installing: a mark, no litres, no cost.
        let mark = try Self.run(["refuel", "add", "--baseline", "--at", "2026-11-20T07:00:00Z"], db: db)
        #expect(mark.exitCode == 0, "\(mark.standardError)")
        #expect(mark.standardOutput.contains("baseline mark"), "\(mark.standardOutput)")
        let refuel = try Self.run(["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "1.5", "--cost", "2.71"], db: db)
        #expect(refuel.exitCode == 0, "\(refuel.standardError)")

        let splits = try Self.json(["split", "--json"], db: db) as! [[String: Any]]
        #expect(splits.map { $0["rule"] as? String } == ["baseline", "ordinary"])
        #expect((splits[0]["shares"] as? [Any])?.isEmpty == true)
        let shares = try #require(splits[1]["shares"] as? [[String: Any]])
        #expect(shares.allSatisfy { $0["before_tracking"] == nil }, "nothing before tracking after a mark: \(shares)")
        #expect(shares.reduce(0) { $0 + ($1["cost_cents"] as! Int) } == 271)
        let text = try Self.run(["split"], db: db).standardOutput
        #expect(text.contains("baseline mark: the tank was full here"), "\(text)")
        let log = try Self.json(["refuel", "list", "--json"], db: db) as! [[String: Any]]
        #expect(log.map { $0["baseline"] as? Bool } == [true, nil])
        #expect(try Self.run(["refuel", "list"], db: db).standardOutput.contains("baseline mark"))
        let summary = try Self.json(["summary", "--json"], db: db) as! [String: Any]
        let rules = try #require(summary["bills_by_rule"] as? [[String: Any]])
        #expect(rules.map { $0["rule"] as? String } == ["ordinary"] && rules.first?["cost_cents"] as? Int == 271)

        // What a mark cannot be: refused, clearly, and nothing changes.
        let refusals: [([String], String)] = [
            (["refuel", "add", "--baseline", "--at", "2026-11-20T06:00:00Z"], "a baseline mark is recorded already"),
            (["refuel", "add", "--baseline", "--liters", "40"], "--baseline marks a full tank"),
            (["refuel", "--at", "2026-11-20T06:30:00Z", "--liters", "40", "--cost", "70.00"], "a full fill-up before it"),
            (["refuel", "edit", String(log[0]["id"] as! Int), "--liters", "3"], "is the baseline mark"),
            (["refuel", "--at", "2026-11-20T10:00:00Z", "--liters", "3"], "say what it cost: --cost"),
        ]
        for (arguments, message) in refusals {
            let refused = try Self.run(arguments, db: db)
            #expect(refused.exitCode != 0, "\(arguments) was accepted")
            #expect(refused.standardError.contains(message), "\(arguments): \(refused.standardError)")
        }
        #expect((try Self.json(["split", "--json"], db: db) as! [[String: Any]]).count == 2)

        // Removed, the bill is the first full fill-up again: Alice's estimate, the rest before tracking.
        let removed = try Self.run(["refuel", "remove", String(log[0]["id"] as! Int)], db: db)
        #expect(removed.exitCode == 0, "\(removed.standardError)")
        let after = try Self.json(["split", "--json"], db: db) as! [[String: Any]]
        #expect(after.map { $0["rule"] as? String } == ["first_fill"])
        let firstShares = try #require(after[0]["shares"] as? [[String: Any]])
        #expect(firstShares.contains { $0["driver"] as? String == "Alice" })
        #expect(firstShares.reduce(0) { $0 + ($1["cost_cents"] as! Int) } == 271)
        #expect(try Self.run(["split"], db: db).standardOutput.contains("first fill-up: each pays their estimated fuel"))
    }
}
