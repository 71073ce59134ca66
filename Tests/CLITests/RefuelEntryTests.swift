import Foundation
import Testing
import TestSupport

/// What `refuel` and `refuel edit` refuse or explain, end to end through the real executable and a
/// real store: two entries at once, a damaged store, a date in the future, a price per litre far
/// from the car's, a local time the car's zone skips.
@Suite struct RefuelEntryTests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try FairFuelExecutable.run(arguments, environment: environment)
    }

    /// A store with a vehicle (55 L tank, EUR) and nothing else.
    static func emptyStore() throws -> String {
        let db = StoreCommandTests.temporaryDB()
        let set = try run(["vehicle", "set", "--name", "Golf", "--db", db])
        #expect(set.exitCode == 0, "\(set.standardError)")
        return db
    }

    static func refuelCount(_ db: String) throws -> Int {
        let list = try run(["refuel", "list", "--json", "--db", db])
        return try (JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as! [Any]).count
    }

    /// Runs each argument list in its own process, all at once.
    static func concurrently(_ argumentLists: [[String]]) -> [CommandResult] {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var byIndex: [Int: CommandResult] = [:]
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: argumentLists.count) { index in
            let result = try! FairFuelExecutable.run(argumentLists[index])
            results.lock.withLock { results.byIndex[index] = result }
        }
        return argumentLists.indices.map { results.byIndex[$0]! }
    }

    /// Both were recorded in 10 of 14 tries when the duplicate check ran before the insert's
    /// transaction; with identical times the second got SQLite's UNIQUE error with its SQL.
    @Test func twoRefuelsEnteredAtOnceAreRecordedOnce() throws {
        let db = try Self.emptyStore()
        for attempt in 0..<6 {
            let hour = 10 + attempt
            let second = attempt % 2 == 0 ? "30" : "00"
            let results = Self.concurrently([
                ["refuel", "--at", "2026-11-02T\(hour):00:00Z", "--liters", "30", "--cost", "54.00", "--db", db],
                ["refuel", "--at", "2026-11-02T\(hour):00:\(second)Z", "--liters", "30", "--cost", "54.00", "--db", db],
            ])
            #expect(results.filter { $0.exitCode == 0 }.count == 1, "attempt \(attempt): \(results.map(\.standardError))")
            for refused in results where refused.exitCode != 0 {
                #expect(refused.standardError.contains("a refuel at that moment is already recorded"), "\(refused.standardError)")
                #expect(!refused.standardError.contains("SQLite"), "\(refused.standardError)")
                #expect(!refused.standardError.contains("INSERT"), "\(refused.standardError)")
            }
        }
        #expect(try Self.refuelCount(db) == 6)
    }

    /// A damaged store gets what is wrong and what to do, not SQLite's error with its statement.
    @Test func aDamagedStoreIsExplainedWithoutSQL() throws {
        let db = try Self.emptyStore()
        for hour in 10...12 {
            #expect(try Self.run(["refuel", "--at", "2026-11-03T\(hour):00Z", "--liters", "30", "--cost", "54", "--db", db]).exitCode == 0)
        }
        // Folds the WAL into the file, so that the damage below is all there is.
        #expect(try Self.run(["store", "check", "--db", db]).exitCode == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        let pageSize = 4096
        #expect(bytes.count > 3 * pageSize)
        bytes.replaceSubrange(pageSize..<bytes.count, with: Data(repeating: 0x5A, count: bytes.count - pageSize))
        try bytes.write(to: URL(fileURLWithPath: db))

        let notADatabase = StoreCommandTests.temporaryDB()
        try Data(repeating: 0xA5, count: 3 * pageSize).write(to: URL(fileURLWithPath: notADatabase))

        for path in [db, notADatabase] {
            let result = try Self.run(["refuel", "--at", "2026-11-04T10:00Z", "--liters", "30", "--cost", "54", "--db", path])
            #expect(result.exitCode != 0)
            #expect(result.standardError.contains("\(path) is damaged"), "\(result.standardError)")
            #expect(result.standardError.contains("fairfuel store check --full --db \(path)"), "\(result.standardError)")
            for sql in ["SQLite error", "SELECT", "INSERT", "PRAGMA"] {
                #expect(!result.standardError.contains(sql), "\(path): \(result.standardError)")
            }
        }
    }

    /// Root writes through any permission, so this runs only as another user.
    @Test(.enabled(if: getuid() != 0)) func aReadOnlyStoreIsExplainedWithoutSQL() throws {
        let db = try Self.emptyStore()
        #expect(try Self.run(["store", "check", "--db", db]).exitCode == 0)
        let directory = (db as NSString).deletingLastPathComponent
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        let result = try Self.run(["refuel", "--at", "2026-11-04T10:00Z", "--liters", "30", "--cost", "54", "--db", db])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("cannot be written"), "\(result.standardError)")
        #expect(!result.standardError.contains("SQLite error"), "\(result.standardError)")
    }

    /// A typo in the year once made a refuel in 2099, and `report --html` then showed that empty month.
    /// The store holds it back (as for the web app and a hub's command) until --force.
    @Test func aRefuelInTheFutureIsRefused() throws {
        let db = try Self.emptyStore()
        let future = try Self.run(["refuel", "--at", "2099-01-01", "--liters", "30", "--cost", "54", "--db", db])
        #expect(future.exitCode != 0, "\(future.standardError)")
        #expect(future.standardError.contains("is in the future") && future.standardError.contains("--force"), "\(future.standardError)")
        // Ten minutes of a clock running ahead are allowed, no more.
        let now = ["FAIRFUEL_NOW": "2026-11-20T12:00:00Z"]
        let ahead = try Self.run(["refuel", "--at", "2026-11-20T12:09:00Z", "--liters", "30", "--cost", "54", "--db", db], environment: now)
        #expect(ahead.exitCode == 0, "\(ahead.standardError)")
        let tooFar = try Self.run(["refuel", "--at", "2026-11-20T12:11:00Z", "--liters", "30", "--cost", "54", "--db", db], environment: now)
        #expect(tooFar.exitCode != 0, "\(tooFar.standardError)")
        #expect(tooFar.standardError.contains("2026-11-20 12:11 (UTC) is in the future (now is 2026-11-20 12:00)"), "\(tooFar.standardError)")
        let edit = try Self.run(["refuel", "edit", "1", "--at", "2099-01-01T10:00", "--db", db])
        #expect(edit.exitCode != 0, "\(edit.standardError)")
        #expect(edit.standardError.contains("is in the future"), "\(edit.standardError)")
        #expect(try Self.refuelCount(db) == 1)
        let forced = try Self.run(["refuel", "--at", "2027-01-01T10:00Z", "--liters", "30", "--cost", "54", "--force", "--db", db], environment: now)
        #expect(forced.exitCode == 0, "\(forced.standardError)")
        #expect(try Self.refuelCount(db) == 2)
    }

    /// 80 EUR for half a litre once went straight into the books; a price per litre outside a third
    /// to three times the median of the car's earlier refuels now needs --force.
    @Test func aPricePerLitreFarFromTheCarsIsRefusedUnlessForced() throws {
        let db = try Self.emptyStore()
        // Too little history for a usual price: anything goes.
        for (day, cost) in [("05", "54.00"), ("06", "55.50"), ("07", "52.80")] {
            let result = try Self.run(["refuel", "--at", "2026-11-\(day)T10:00Z", "--liters", "30", "--cost", cost, "--db", db])
            #expect(result.exitCode == 0, "\(result.standardError)")
        }
        let typo = try Self.run(["refuel", "--at", "2026-11-08T10:00Z", "--liters", "0.5", "--cost", "80", "--db", db])
        #expect(typo.exitCode != 0)
        #expect(typo.standardError.contains("80.00 EUR for 0.50 L is 160.00 EUR/L, far from this car's usual 1.80 EUR/L"), "\(typo.standardError)")
        #expect(typo.standardError.contains("--force"), "\(typo.standardError)")
        let cheap = try Self.run(["refuel", "--at", "2026-11-08T10:00Z", "--liters", "40", "--cost", "20", "--db", db])
        #expect(cheap.exitCode != 0)
        #expect(cheap.standardError.contains("is 0.50 EUR/L"), "\(cheap.standardError)")
        #expect(try Self.refuelCount(db) == 3)
        let usual = try Self.run(["refuel", "--at", "2026-11-08T10:00Z", "--liters", "40", "--cost", "80", "--db", db])
        #expect(usual.exitCode == 0, "\(usual.standardError)")
        let forced = try Self.run(["refuel", "--at", "2026-11-09T10:00Z", "--liters", "0.5", "--cost", "80", "--force", "--db", db])
        #expect(forced.exitCode == 0, "\(forced.standardError)")
        // The same rule for a correction.
        let edit = try Self.run(["refuel", "edit", "4", "--cost", "800", "--db", db])
        #expect(edit.exitCode != 0)
        #expect(edit.standardError.contains("is 20.00 EUR/L, far from this car's usual"), "\(edit.standardError)")
        #expect(try Self.run(["refuel", "edit", "4", "--cost", "800", "--force", "--db", db]).exitCode == 0)
        #expect(try Self.refuelCount(db) == 5)
    }

    /// 6.00 EUR for 38 L (a digit short) went into a new car's books: with too few refuels for a usual
    /// price, one outside what fuel costs anywhere in the car's currency needs --force. The range
    /// is the currency's: 158 JPY or 600 HUF a litre is a price, 16 JPY or 60 HUF is not.
    @Test func aPriceNoPumpChargesNeedsForceBeforeTheCarHasAUsualOne() throws {
        let db = try Self.emptyStore()
        let short = try Self.run(["refuel", "--at", "2026-11-05T10:00Z", "--liters", "38", "--cost", "6.00", "--db", db])
        #expect(short.exitCode != 0)
        #expect(short.standardError.contains(
            "6.00 EUR for 38.00 L is 0.16 EUR/L, outside what fuel costs anywhere in EUR (0.17 EUR/L to 4.40 EUR/L"), "\(short.standardError)")
        #expect(short.standardError.contains("--force") && short.standardError.contains("nothing was changed"), "\(short.standardError)")
        let dear = try Self.run(["refuel", "--at", "2026-11-05T10:00Z", "--liters", "3.8", "--cost", "60.00", "--db", db])
        #expect(dear.exitCode != 0)
        #expect(dear.standardError.contains("is 15.79 EUR/L, outside what fuel costs anywhere in EUR"), "\(dear.standardError)")
        #expect(try Self.refuelCount(db) == 0)
        #expect(try Self.run(["refuel", "--at", "2026-11-05T10:00Z", "--liters", "38", "--cost", "60.00", "--db", db]).exitCode == 0)
        let forced = try Self.run(["refuel", "--at", "2026-11-06T10:00Z", "--liters", "38", "--cost", "6.00", "--force", "--db", db])
        #expect(forced.exitCode == 0, "\(forced.standardError)")
        // A correction before the car has a usual price: the same range.
        let edit = try Self.run(["refuel", "edit", "1", "--cost", "600", "--db", db])
        #expect(edit.exitCode != 0)
        #expect(edit.standardError.contains("outside what fuel costs anywhere in EUR"), "\(edit.standardError)")
        #expect(try Self.refuelCount(db) == 2)

        for (currency, price, typo, range) in [
            ("JPY", "6000", "600", "(31 JPY/L to 780 JPY/L"), ("HUF", "22800", "2280", "(66.00 HUF/L to 1700.00 HUF/L"),
        ] {
            let other = try Self.emptyStore()
            #expect(try Self.run(["vehicle", "set", "--currency", currency, "--db", other]).exitCode == 0)
            let refused = try Self.run(["refuel", "--at", "2026-11-05T10:00Z", "--liters", "38", "--cost", typo, "--db", other])
            #expect(refused.exitCode != 0, "\(currency) \(typo) for 38 L")
            #expect(refused.standardError.contains("outside what fuel costs anywhere in \(currency) \(range)"), "\(refused.standardError)")
            let right = try Self.run(["refuel", "--at", "2026-11-05T10:00Z", "--liters", "38", "--cost", price, "--db", other])
            #expect(right.exitCode == 0, "\(currency) \(price) for 38 L: \(right.standardError)")
        }
    }

    /// The same refuel typed again (to correct it) was refused with "already recorded" and no way on.
    @Test func aRefuelTypedAgainPointsToRefuelEdit() throws {
        let db = try Self.emptyStore()
        #expect(try Self.run(["refuel", "--at", "2026-11-05T10:00Z", "--liters", "38", "--cost", "66.00", "--db", db]).exitCode == 0)
        let again = try Self.run(["refuel", "--at", "2026-11-05T10:00:30Z", "--liters", "38", "--cost", "68.00", "--db", db])
        #expect(again.exitCode != 0)
        #expect(again.standardError.contains("a refuel at that moment is already recorded (refuel 1, within a minute of this one)"), "\(again.standardError)")
        #expect(again.standardError.contains("`fairfuel refuel edit 1`"), "\(again.standardError)")
        #expect(try Self.refuelCount(db) == 1)
    }

    /// In Berlin the clocks go from 02:00 to 03:00 on 2026-03-29: 02:30 was once stored as 03:30.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin")))
    func aLocalTimeTheZoneSkipsIsRefused() throws {
        let db = try Self.emptyStore()
        #expect(try Self.run(["vehicle", "set", "--time-zone", "Europe/Berlin", "--db", db]).exitCode == 0)
        let gap = try Self.run(["refuel", "--at", "2026-03-29T02:30", "--liters", "30", "--cost", "54", "--db", db])
        #expect(gap.exitCode == 64, "\(gap.standardError)")
        #expect(gap.standardError.contains("2026-03-29T02:30 does not exist in Europe/Berlin: the clocks jump from 2026-03-29 02:00 to 2026-03-29 03:00"),
                "\(gap.standardError)")
        #expect(gap.standardError.contains("2026-03-29T02:30+01:00 or 2026-03-29T02:30+02:00"), "\(gap.standardError)")
        #expect(try Self.refuelCount(db) == 0)
        // An explicit offset names an instant: accepted as typed.
        #expect(try Self.run(["refuel", "--at", "2026-03-29T02:30+01:00", "--liters", "30", "--cost", "54", "--db", db]).exitCode == 0)
        // The autumn hour happens twice: the first of the two (summer time), as documented.
        #expect(try Self.run(["refuel", "--at", "2026-10-25T02:30", "--liters", "30", "--cost", "54", "--db", db]).exitCode == 0)
        let edit = try Self.run(["refuel", "edit", "1", "--at", "2026-03-29T02:15", "--db", db])
        #expect(edit.exitCode == 64, "\(edit.standardError)")
        #expect(edit.standardError.contains("does not exist in Europe/Berlin"), "\(edit.standardError)")
        let list = try Self.run(["refuel", "list", "--json", "--db", db]).standardOutput
        #expect(list.contains("\"at_utc\":\"2026-03-29T01:30:00.000Z\""), "\(list)")
        #expect(list.contains("\"at_utc\":\"2026-10-25T00:30:00.000Z\""), "\(list)")
    }
}
