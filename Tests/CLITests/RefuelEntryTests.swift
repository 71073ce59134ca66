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

}
