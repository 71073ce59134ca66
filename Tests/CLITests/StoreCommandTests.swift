import Foundation
import Testing
import TestSupport

/// The store commands end to end through the real executable and a real SQLite file.
@Suite struct StoreCommandTests {
    static func temporaryDB() -> String {
        let directory = NSTemporaryDirectory() + "fairfuel-cli-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/fairfuel.db"
    }

    static func run(_ arguments: [String]) throws -> CommandResult { try FairFuelExecutable.run(arguments) }

    static func jsonArray(_ text: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]
    }

    @Test func replayOfTheSampleGivesATripAndASplit() throws {
        let db = Self.temporaryDB()
        let add = try Self.run(["provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
                                "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0", "--db", db])
        #expect(add.exitCode == 0, "\(add.standardError)")
        let replay = try Self.run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--db", db])
        #expect(replay.exitCode == 0, "\(replay.standardError)")
        #expect(replay.standardOutput.contains("1 session(s) started"))

        // The sample starts moving a moment before Alice's tap: that is untracked driving, with its own `u` id.
        let rows = try Self.jsonArray(try Self.run(["trips", "--json", "--db", db]).standardOutput)
        #expect(rows.filter { $0["id"] is String }.allSatisfy { ($0["id"] as! String).hasPrefix("u") && $0["driver"] is NSNull })
        let trips = rows.filter { $0["id"] is Int }
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        for key in ["id", "driver", "start_utc", "end_utc", "end_reason", "distance_km", "duration_s", "idle_s", "harsh_accel", "harsh_brake", "max_speed_kmh", "fuel_l"] {
            #expect(trip.keys.contains(key), "trips JSON lacks \(key)")
        }
        #expect(trip["driver"] as? String == "Alice")
        #expect((trip["start_utc"] as? String)?.hasPrefix("2026-11-20T08:00:0") == true)
        #expect(((trip["distance_km"] as? Double) ?? 0) > 0.1)

        // The first full fill-up is the baseline (before tracking); the next one is split.
        let baseline = try Self.run(["refuel", "--at", "2026-11-20T07:00:00Z", "--liters", "40", "--cost", "70.00", "--db", db])
        #expect(baseline.exitCode == 0, "\(baseline.standardError)")
        let refuel = try Self.run(["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "40", "--cost", "72.50", "--db", db])
        #expect(refuel.exitCode == 0, "\(refuel.standardError)")
        let splits = try Self.jsonArray(try Self.run(["split", "--json", "--db", db]).standardOutput)
        #expect(splits.count == 2)
        #expect((splits[0]["shares"] as? [[String: Any]])?.map { $0["before_tracking"] as? Bool } == [true])
        let split = try #require(splits.last)
        #expect(split["at_utc"] as? String == "2026-11-20T09:00:00.000Z")
        #expect(split["cost_cents"] as? Int == 7250)
        let shares = try #require(split["shares"] as? [[String: Any]])
        #expect(shares.reduce(0) { $0 + ($1["cost_cents"] as! Int) } == 7250)
        #expect(shares.contains { $0["driver"] as? String == "Alice" })
        for share in shares { #expect(share.keys.contains("fuel_l")) }
    }

    @Test func readingAStoreThatIsNotThereSaysWhatCreatesOne() throws {
        let db = Self.temporaryDB()
        for arguments in [["vehicle", "show"], ["trips"], ["split"], ["summary"]] {
            let result = try Self.run(arguments + ["--db", db])
            #expect(result.exitCode != 0, "\(arguments)")
            #expect(result.standardError.contains("no store at \(db) yet: `fairfuel run` creates it"), "\(arguments): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: db), "\(arguments) created the store")
        }
    }

    /// A mistyped --db once made a new store, and the refuel went into it instead of the real books:
    /// only run, replay, provision driver add|import|pairing-secret --generate and vehicle set create one.
    @Test func writingToAStoreThatIsNotThereIsRefusedAndCreatesNothing() throws {
        let db = Self.temporaryDB()
        let directory = (db as NSString).deletingLastPathComponent
        let writes: [[String]] = [
            ["refuel", "--liters", "30", "--cost", "50"],
            ["refuel", "add", "--at", "2026-11-20T09:00Z", "--liters", "30", "--cost", "50"],
            ["refuel", "edit", "1", "--liters", "31"],
            ["refuel", "remove", "1"],
            ["refuel", "settle", "1"],
            ["trips", "assign", "1", "Alice"],
            ["trips", "delete", "1"],
            ["provision", "pairing-secret"],
            ["provision", "driver", "rename", "Alice", "Alicia"],
            ["provision", "driver", "remove", "Alice"],
            ["store", "prune"],
        ]
        for arguments in writes {
            let result = try Self.run(arguments + ["--db", db])
            #expect(result.exitCode != 0, "\(arguments)")
            #expect(result.standardError.contains("no store at \(db) yet: `fairfuel run` creates it, as do `replay`, `provision driver add`"),
                    "\(arguments): \(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [], "\(arguments) left files behind")
        }
        // The first provisioning still starts from nothing.
        let secret = try Self.run(["provision", "pairing-secret", "--generate", "--db", db])
        #expect(secret.exitCode == 0, "\(secret.standardError)")
        #expect(FileManager.default.fileExists(atPath: db))
    }

    @Test func anEmptyStoreSaysWhatFillsIt() throws {
        let db = Self.temporaryDB()
        #expect(try Self.run(["vehicle", "set", "--name", "Golf", "--db", db]).exitCode == 0)
        let trips = try Self.run(["trips", "--db", db])
        #expect(trips.exitCode == 0)
        #expect(trips.standardOutput.hasSuffix("no trips yet: a driver's tap on the dongle starts one\n"), "\(trips.standardOutput)")
        let filtered = try Self.run(["trips", "--driver", "nobody", "--db", db])
        #expect(filtered.exitCode != 0 && filtered.standardError.contains("no driver named 'nobody'"))
        let untracked = try Self.run(["trips", "--untracked", "--db", db])
        #expect(untracked.standardOutput.hasSuffix("no trips match\n"), "\(untracked.standardOutput)")
        let split = try Self.run(["split", "--db", db])
        #expect(split.exitCode == 0)
        #expect(split.standardOutput.hasPrefix("no bills to split yet: enter each refuel with `fairfuel refuel"), "\(split.standardOutput)")
        // Machine-readable outputs stay what they were: empty.
        #expect(try Self.jsonArray(try Self.run(["split", "--json", "--db", db]).standardOutput).isEmpty)
        #expect(try Self.jsonArray(try Self.run(["trips", "--json", "--db", db]).standardOutput).isEmpty)
        #expect(try Self.run(["trips", "--csv", "--db", db]).standardOutput.split(separator: "\n").count == 1, "the CSV header only")
    }

    @Test func badArgumentsFailClearlyAndChangeNothing() throws {
        let db = Self.temporaryDB()
        #expect(try Self.run(["provision", "driver", "add", "Alice", "--tag", "04a22b7a", "--db", db]).exitCode == 0)
        let cases: [([String], String)] = [
            (["provision", "driver", "add", "Bob", "--tag", "04a22b", "--db", db], "tag '04a22b'"),
            (["provision", "driver", "add", "Bob", "--beacon", "ibeacon:nope:1:2", "--db", db], "beacon 'ibeacon:nope:1:2'"),
            (["provision", "driver", "add", "Bob", "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:70000:1", "--db", db], "beacon"),
            (["provision", "driver", "add", "Bob", "--tag", "04A22B7A", "--db", db], "already bound to Alice"),
            (["provision", "driver", "add", "alice", "--db", db], "already exists"),
            (["vehicle", "set", "--l-per-100km", "0", "--db", db], "--l-per-100km must be 1 to 40"),
            (["vehicle", "set", "--fuel", "hydrogen", "--db", db], "--fuel must be petrol, diesel or lpg"),
            (["refuel", "--at", "yesterday", "--liters", "40", "--cost", "70", "--db", db], "not an ISO 8601 date-time"),
            (["refuel", "--at", "2026-11-20T09:00Z", "--liters", "40", "--cost", "70.999", "--db", db], "more than 2 decimals"),
            (["refuel", "--at", "2026-11-20T09:00Z", "--liters", "400", "--cost", "70", "--db", db], "more than the 55.0 L tank"),
            (["refuel", "--at", "2026-11-20T09:00Z", "--liters=-3", "--cost", "70", "--db", db], "'-3' is out of range: 0.1 to 500 L"),
            (["replay", "/no/such.ffcap", "--db", db], "cannot read capture /no/such.ffcap"),
        ]
        for (arguments, message) in cases {
            let result = try Self.run(arguments)
            #expect(result.exitCode != 0, "\(arguments) should fail")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        let list = try Self.run(["provision", "driver", "list", "--db", db])
        #expect(list.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("\t") }.count == 1)
        let vehicle = try Self.run(["vehicle", "show", "--db", db])
        #expect(vehicle.standardOutput.contains("rated 6.5 L/100 km"))
        #expect(try Self.jsonArray(try Self.run(["split", "--json", "--db", db]).standardOutput).isEmpty)
    }

    @Test func vehicleSetChangesOnlyWhatItNames() throws {
        let db = Self.temporaryDB()
        #expect(try Self.run(["vehicle", "set", "--name", "Zoe", "--l-per-100km", "5.2", "--mass-kg", "1250", "--idle-l-per-h", "0.6", "--db", db]).exitCode == 0)
        #expect(try Self.run(["vehicle", "set", "--currency", "usd", "--db", db]).exitCode == 0)
        let shown = try Self.run(["vehicle", "show", "--db", db]).standardOutput
        #expect(shown.contains("name Zoe"))
        #expect(shown.contains("rated 5.2 L/100 km"))
        #expect(shown.contains("mass 1250.0 kg"))
        #expect(shown.contains("idle 0.6 L/h"))
        #expect(shown.contains("currency USD"))
    }
}

/// `store prune` measures after the checkpoint that empties the WAL, so a store that shrank reads as shrunk.
@Suite struct StorePruneCommandTests {
    /// A folder (`prefix` + a few letters) holding the store `demo` kept of the short drive.
    static func shortDriveDemo(_ prefix: String) throws -> String {
        let keep = NSTemporaryDirectory() + prefix + String(UUID().uuidString.prefix(8))
        let demo = try FairFuelExecutable.run([
            "demo", "--scenario", PackagePaths.root + "/scenarios/short-drive.scenario", "--speed", "1000", "--idle-speed", "20000",
            "--quiet", "--keep", keep,
        ])
        #expect(demo.exitCode == 0, "\(demo.standardError)")
        return keep
    }

    @Test func pruneReportsTheSizesAfterTheCheckpoint() throws {
        let keep = try Self.shortDriveDemo("fairfuel-prune-")
        defer { try? FileManager.default.removeItem(atPath: keep) }
        let db = keep + "/fairfuel.db"
        let prune = try FairFuelExecutable.run(["store", "prune", "--db", db, "--now", "2027-01-01T00:00:00Z", "--max-age-days", "1"])
        #expect(prune.exitCode == 0, "\(prune.standardError)")
        let words = prune.standardOutput.split(separator: " ")
        let before = try #require(Int64(words[0]))
        let after = try #require(Int64(words[2]))
        #expect(after < before, "\(prune.standardOutput)")
        func size(_ path: String) -> Int64 { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int64) ?? 0 }
        #expect(after == size(db) + size(db + "-wal") + size(db + "-reserve"), "\(prune.standardOutput)")
        #expect(prune.standardOutput.contains("WAL 0)"))
        #expect(prune.standardOutput.contains("1 track(s) simplified for age"))
    }

    /// A store after a crash loop: each start left a run row with nothing in it. `prune` drops
    /// them (keeping the newest few) and says how many; a second pass has none left to drop.
    @Test func pruneSaysHowManyEmptyRunsItDropped() throws {
        let keep = NSTemporaryDirectory() + "fairfuel-prune-runs-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: keep) }
        let db = keep + "/fairfuel.db"
        // A replay of nothing from standard input: a run with no session and no capture to remember.
        let starts = 20
        for _ in 0..<starts {
            let empty = try FairFuelExecutable.run(["replay", "-", "--db", db], input: "# fairfuel capture v1\n")
            #expect(empty.exitCode == 0, "\(empty.standardError)")
        }
        let prune = try FairFuelExecutable.run(["store", "prune", "--db", db, "--now", "2027-01-01T00:00:00Z"])
        #expect(prune.exitCode == 0, "\(prune.standardError)")
        let dropped = try #require(prune.standardOutput.firstMatch(of: /(\d+) empty run\(s\) dropped/)).1
        // The store keeps the newest 16 runs whatever they hold (`TripStore.newestRunsKept`).
        #expect(Int(dropped).map { $0 >= starts - 16 } == true, "\(prune.standardOutput)")
        let again = try FairFuelExecutable.run(["store", "prune", "--db", db, "--now", "2027-01-01T00:00:00Z"])
        #expect(again.standardOutput.contains(" 0 empty run(s) dropped"), "\(again.standardOutput)")
    }

    /// `store stats` and `store prune` read the board profile from $FAIRFUEL_BOARD, as every other
    /// command does: its one-day age limit thins the demo's track, and its budget is the one shown.
    @Test func statsAndPruneFollowTheBoardProfileInTheEnvironment() throws {
        let keep = try Self.shortDriveDemo("fairfuel-prune-board-")
        defer { try? FileManager.default.removeItem(atPath: keep) }
        let db = keep + "/fairfuel.db"
        var profile = try BoardFiles.text("x86-64-dev.toml")
        for (from, to) in [("disk_budget_bytes = 1_073_741_824", "disk_budget_bytes = 123_456_789"),
                           ("trip_point_max_age_days = 400", "trip_point_max_age_days = 1")] {
            #expect(profile.contains(from), "x86-64-dev.toml no longer sets \(from)")
            profile = profile.replacingOccurrences(of: from, with: to)
        }
        let board = keep + "/board.toml"
        try profile.write(toFile: board, atomically: true, encoding: .utf8)
        let environment = ["FAIRFUEL_BOARD": board]

        let stats = try FairFuelExecutable.run(["store", "stats", "--json", "--db", db], environment: environment)
        #expect(stats.exitCode == 0, "\(stats.standardError)")
        #expect(stats.standardOutput.contains("\"budget_bytes\":123456789"), "\(stats.standardOutput)")
        let text = try FairFuelExecutable.run(["store", "stats", "--db", db], environment: environment)
        #expect(text.standardOutput.contains("budget        123456789 bytes"), "\(text.standardOutput)")

        let prune = try FairFuelExecutable.run(["store", "prune", "--db", db, "--now", "2027-01-01T00:00:00Z"], environment: environment)
        #expect(prune.exitCode == 0, "\(prune.standardError)")
        #expect(prune.standardOutput.contains("1 track(s) simplified for age"), "\(prune.standardOutput)")

        // A profile that cannot be read is an error, not the built-in default.
        let broken = try FairFuelExecutable.run(["store", "stats", "--db", db], environment: ["FAIRFUEL_BOARD": keep + "/missing.toml"])
        #expect(broken.exitCode != 0)
        #expect(broken.standardError.contains("cannot read the board profile"), "\(broken.standardError)")
    }

    /// Days past the board profile's 1...36500 once overflowed the cutoff's milliseconds (SIGILL):
    /// every numeric option is refused as a usage error (64) naming its range, and nothing is pruned.
    @Test func outOfRangeNumbersAreUsageErrorsNamingTheRange() throws {
        let db = StoreCommandTests.temporaryDB()
        #expect(try FairFuelExecutable.run(["vehicle", "set", "--name", "Golf", "--db", db]).exitCode == 0)
        let cases: [([String], String)] = [
            (["--max-age-days", "106751991168"], "--max-age-days must be 1...36500 days"),
            (["--max-age-days", "36501"], "--max-age-days must be 1...36500 days"),
            (["--max-age-days", "0"], "--max-age-days must be 1...36500 days"),
            (["--budget-bytes", "9223372036854775807"], "--budget-bytes must be 1048576...1125899906842624 bytes"),
            (["--budget-bytes", "1048575"], "--budget-bytes must be 1048576...1125899906842624 bytes"),
        ]
        for (options, message) in cases {
            let result = try FairFuelExecutable.run(["store", "prune", "--now", "2026-11-26T00:00Z", "--db", db] + options)
            #expect(result.exitCode == 64, "\(options): \(result.exitCode) \(result.standardError)")
            #expect(result.standardError.contains(message), "\(options): \(result.standardError)")
        }
        let edges = try FairFuelExecutable.run(["store", "prune", "--now", "2026-11-26T00:00Z", "--max-age-days", "36500", "--budget-bytes", "1125899906842624", "--db", db])
        #expect(edges.exitCode == 0, "\(edges.standardError)")
    }
}
