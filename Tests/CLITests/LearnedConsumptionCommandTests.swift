import Foundation
import Testing
import TestSupport

/// `vehicle show` and `summary` say what the car has learnt from full tanks, through the real executable.
@Suite(.serialized) struct LearnedConsumptionCommandTests {
    @Test func vehicleShowAndSummarySayHowManyFullTanksTheCarStillNeeds() throws {
        let db = StoreCommandTests.temporaryDB()
        for arguments in [
            ["provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
             "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0"],
            ["replay", PackagePaths.root + "/samples/drive-20s.ffcap"],
            ["refuel", "add", "--baseline", "--at", "2026-11-20T07:00:00Z"],
            ["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "30", "--cost", "54.00"],
        ] {
            let result = try BaselineMarkCommandTests.run(arguments, db: db)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        }
        // One full tank after the mark: one period, of the ones the car needs before it tries.
        let json = try #require(try BaselineMarkCommandTests.json(["summary", "--json"], db: db) as? [String: Any])
        let learned = try #require(json["learned_consumption"] as? [String: Any], "\(json)")
        #expect(learned["outcome"] as? String == "too_few_periods" && learned["full_tanks"] as? Int == 1)
        let needed = try #require(learned["full_tanks_needed"] as? Int)
        #expect(needed > 1)
        let line = "learned consumption: not yet: 1 full tank of the \(needed) needed"
        let show = try BaselineMarkCommandTests.run(["vehicle", "show"], db: db)
        #expect(show.standardOutput.contains(line), "\(show.standardOutput)")
        let summary = try BaselineMarkCommandTests.run(["summary"], db: db)
        #expect(summary.standardOutput.contains(line), "\(summary.standardOutput)")
    }
}
