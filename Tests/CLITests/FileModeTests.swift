import Foundation
import Testing
import TestSupport

/// Every file the product creates is 0600 or 0640, whatever umask started it.
@Suite(.serialized) struct FileModeTests {
    static func mode(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    @Test func storeReserveCapturesExportsReportsAndBundlesAreNotWorldReadable() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-modes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/fairfuel.db"
        // The loosest umask a parent could hand down; the children inherit it.
        ProcessUmask.lock.lock()
        defer { ProcessUmask.lock.unlock() }
        let previous = umask(0)
        defer { umask(previous) }
        func run(_ arguments: [String]) throws {
            let result = try FairFuelExecutable.run(arguments)
            #expect(result.exitCode == 0, "\(arguments.joined(separator: " ")): \(result.standardError)")
        }
        try run(["provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
                 "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0", "--db", db])
        try run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--db", db])
        try run(["export", "1", "--gpx", "--out", directory + "/trip.gpx", "--db", db])
        try run(["export", "1", "--geojson", "--out", directory + "/trip.geojson", "--db", db])
        try run(["report", "--html", directory + "/report.html", "--db", db])
        try run(["provision", "export", directory + "/car.toml", "--db", db])
        try run(["synth-capture", "--soak", "--hours", "0.01", "--out", directory + "/synth.ffcap"])
        #expect(Self.mode(db) == 0o640)
        #expect(Self.mode(db + "-reserve") == 0o600)
        for companion in [db + "-wal", db + "-shm"] where FileManager.default.fileExists(atPath: companion) {
            #expect(Self.mode(companion) == 0o640, "\(companion)")
        }
        for file in ["trip.gpx", "trip.geojson", "report.html", "car.toml", "synth.ffcap"] {
            #expect(Self.mode(directory + "/" + file) == 0o600, "\(file): \(String(Self.mode(directory + "/" + file) ?? -1, radix: 8))")
        }
    }

    @Test func aStoreLeftWorldReadableIsTightenedWhenOpened() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-modes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/fairfuel.db"
        #expect(try FairFuelExecutable.run(["provision", "driver", "add", "Alice", "--db", db]).exitCode == 0)
        chmod(db, 0o644)
        #expect(try FairFuelExecutable.run(["provision", "driver", "add", "Ben", "--db", db]).exitCode == 0)
        #expect(Self.mode(db) == 0o640)
    }
}
