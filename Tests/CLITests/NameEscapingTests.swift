import FairFuelStore
import Foundation
import Testing
import TestSupport

/// A driver whose name carries terminal escapes (a store written by another tool, an old import):
/// `trips`, `split`, `summary` and `provision driver list` show them as visible escapes.
@Suite struct NameEscapingTests {
    @Test func storeNamesWithControlsAreShownAsEscapes() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-names-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/fairfuel.db"
        let add = try FairFuelExecutable.run([
            "provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
            "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0", "--db", db,
        ])
        #expect(add.exitCode == 0, "\(add.standardError)")
        for _ in 0..<2 {
            let replay = try FairFuelExecutable.run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again", "--db", db])
            #expect(replay.exitCode == 0, "\(replay.standardError)")
        }
        // The baseline fill before the trips, then a bill they share.
        for at in ["2026-11-20T07:00:00Z", "2026-11-20T09:00:00Z"] {
            let refuel = try FairFuelExecutable.run(["refuel", "--at", at, "--liters", "40", "--cost", "72.50", "--db", db])
            #expect(refuel.exitCode == 0, "\(refuel.standardError)")
        }
        do {
            let store = try TripStore(path: db)
            _ = try store.renameDriver(named: "Alice", to: HostilePullTests.hostileName)
        }
        for arguments in [["trips"], ["split"], ["summary"], ["provision", "driver", "list"]] {
            let result = try FairFuelExecutable.run(arguments + ["--db", db])
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            let text = result.standardOutput
            #expect(text.contains(HostilePullTests.hostileNameShown), "\(arguments): \(text)")
            #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" },
                    "\(arguments) printed a raw control: \(text.debugDescription)")
        }
    }
}
