import Foundation
import Testing
import TestSupport

/// `fairfuel usb-serve` and `fairfuel pull` as separate processes over a socat pseudo-terminal pair.
@Suite(.serialized, .tags(.integration)) struct USBPullTests {
    /// A background process whose standard error is collected as it comes.
    final class Background: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var errorText = ""

        init(_ executable: String, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            err.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.lock()
                self.errorText += String(decoding: data, as: UTF8.self)
                self.lock.unlock()
            }
            try process.run()
        }

        var standardError: String {
            lock.lock()
            defer { lock.unlock() }
            return errorText
        }

        func kill(_ signal: Int32 = SIGKILL) {
            guard process.isRunning else { return }
            Foundation.kill(process.processIdentifier, signal)
            process.waitUntilExit()
        }

        deinit { kill() }
    }

    /// A socat pty pair: `dongle` for usb-serve, `laptop` for pull.
    struct Link {
        let socat: Background
        let dongle: String
        let laptop: String

        init(directory: String) throws {
            dongle = directory + "/ttyGS0"
            laptop = directory + "/ttyACM0"
            socat = try Background("/usr/bin/socat", ["-d", "-d", "pty,raw,echo=0,link=\(dongle)", "pty,raw,echo=0,link=\(laptop)"])
            for _ in 0..<100 where !(FileManager.default.fileExists(atPath: dongle) && FileManager.default.fileExists(atPath: laptop)) {
                usleep(20_000)
            }
        }
    }

    struct Fixture {
        let directory: String
        let db: String
        let secret: String
        let tripCount: Int
    }

    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// A store with two drivers' trips (the 20 s sample replayed `replays` times), a refuel and a pairing secret.
    static func fixture(replays: Int) throws -> Fixture {
        let directory = NSTemporaryDirectory() + "fairfuel-pull-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/dongle.db"
        let add = try FairFuelExecutable.run([
            "provision", "driver", "add", "Alice", "--tag", "fairfuel://driver/3F2A1B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
            "--beacon", "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:0", "--db", db,
        ])
        #expect(add.exitCode == 0, "\(add.standardError)")
        for _ in 0..<replays {
            let replay = try FairFuelExecutable.run(["replay", PackagePaths.root + "/samples/drive-20s.ffcap", "--again", "--db", db])
            #expect(replay.exitCode == 0, "\(replay.standardError)")
        }
        let refuel = try FairFuelExecutable.run(["refuel", "--at", "2026-11-20T09:00:00Z", "--liters", "40", "--cost", "72.50", "--db", db])
        #expect(refuel.exitCode == 0, "\(refuel.standardError)")
        let generated = try FairFuelExecutable.run(["provision", "pairing-secret", "--generate", "--db", db])
        #expect(generated.exitCode == 0, "\(generated.standardError)")
        let secret = generated.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.count == 39, "32 hex digits in 8 groups of 4: \(secret)")
        return Fixture(directory: directory, db: db, secret: secret, tripCount: try closedTrips(db).count)
    }

    /// The store's trips that are closed: an open one (the last replay's) is pulled once it closes.
    static func closedTrips(_ db: String) throws -> [[String: Any]] {
        let text = try FairFuelExecutable.run(["trips", "--json", "--db", db]).standardOutput
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]).filter { !($0["end_reason"] is NSNull) }
    }

    static func serve(_ fixture: Fixture, _ link: Link, extra: [String] = []) throws -> Background {
        try Background(FairFuelExecutable.path, ["usb-serve", "--port", link.dongle, "--db", fixture.db] + extra)
    }

    static func pull(_ link: Link, out: String, secret: String, extra: [String] = []) throws -> CommandResult {
        try FairFuelExecutable.run(["pull", "--port", link.laptop, "--out", out, "--secret", secret] + extra)
    }

    static func pulledTripIDs(_ out: String) throws -> [Int] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/trips.json"))
        return (try JSONSerialization.jsonObject(with: data) as! [[String: Any]]).map { $0["id"] as! Int }
    }

    @Test func aFullPullWritesEveryTripTrackAndSplit() throws {
        let fixture = try Self.fixture(replays: 3)
        #expect(fixture.tripCount == 2, "three replays: the first two trips closed, the last one open")
        let link = try Link(directory: fixture.directory)
        let server = try Self.serve(fixture, link)
        defer { server.kill(SIGTERM) }
        let out = fixture.directory + "/pull"
        let result = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(result.exitCode == 0, "\(result.standardError)\n\(server.standardError)")
        #expect(result.standardOutput.contains("pulled 2 new trip(s)"))
        #expect(result.standardError.contains("pulled 2/2 trips"), "plain progress lines when stderr is not a terminal")

        let store = try Self.closedTrips(fixture.db)
        let pulled = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/trips.json"))) as! [[String: Any]]
        #expect(pulled.count == store.count)
        for (a, b) in zip(store, pulled) {
            for key in ["id", "driver", "start_utc", "end_utc", "end_reason", "duration_s", "harsh_accel", "harsh_brake"] {
                #expect("\(a[key] ?? "nil")" == "\(b[key] ?? "nil")", "trip \(a["id"]!) \(key)")
            }
            #expect(abs((a["distance_km"] as! Double) - (b["distance_km"] as! Double)) < 0.001)
            let gpx = try String(contentsOfFile: out + "/tracks/trip-\(a["id"]!).gpx", encoding: .utf8)
            #expect(gpx.contains("<trkpt"), "trip \(a["id"]!) has a track")
        }
        let csv = try String(contentsOfFile: out + "/trips.csv", encoding: .utf8)
        #expect(csv.split(separator: "\r\n").count == store.count + 1)
        let splits = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/splits.json"))) as! [[String: Any]]
        #expect(splits.reduce(0) { $0 + ($1["share_minor"] as! Int) } == 7250, "shares sum to the bill")
        // Pulled files hold where the family drove: owner only, whatever the umask.
        let pulledFiles = FileManager.default.enumerator(atPath: out)!.compactMap { $0 as? String }
        #expect(pulledFiles.count >= 6)
        for file in pulledFiles {
            var info = stat()
            guard stat(out + "/" + file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            #expect(info.st_mode & 0o777 == 0o600, "\(file): \(String(info.st_mode & 0o777, radix: 8))")
        }

        // The family view of this one car: Alice owes the whole bill.
        let family = try FairFuelExecutable.run(["family", out, "--json"])
        #expect(family.exitCode == 0, "\(family.standardError)")
        let drivers = try JSONSerialization.jsonObject(with: Data(family.standardOutput.utf8)) as! [[String: Any]]
        let alice = try #require(drivers.first { $0["driver"] as? String == "Alice" })
        #expect(alice["trips"] as? Int == 2)
        #expect(alice["driver_uuid"] as? String == "3f2a1b4c-5d6e-4f70-8192-a3b4c5d6e7f8")

        // A second pull finds nothing new and duplicates nothing.
        let again = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("pulled 0 new trip(s)"))
        #expect(try Self.pulledTripIDs(out).count == store.count)

        // Corrected on the dongle: trip 1 was Bob's, trip 2 deleted. The next pull follows.
        let ids = try Self.pulledTripIDs(out)
        #expect(try FairFuelExecutable.run(["provision", "driver", "add", "Bob", "--db", fixture.db]).exitCode == 0)
        let assign = try FairFuelExecutable.run(["trips", "assign", String(ids[0]), "Bob", "--db", fixture.db])
        #expect(assign.exitCode == 0, "\(assign.standardError)")
        let delete = try FairFuelExecutable.run(["trips", "delete", String(ids[1]), "--db", fixture.db])
        #expect(delete.exitCode == 0, "\(delete.standardError)")
        let corrected = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(corrected.exitCode == 0, "\(corrected.standardError)")
        #expect(corrected.standardOutput.contains("1 deleted on the dongle since, removed here"), "\(corrected.standardOutput)")
        #expect(corrected.standardOutput.contains("1 corrected on the dongle since, updated here"), "\(corrected.standardOutput)")
        #expect(try Self.pulledTripIDs(out) == [ids[0]])
        let trips = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/trips.json"))) as! [[String: Any]]
        #expect(trips.map { $0["driver"] as? String } == ["Bob"])
        #expect(!FileManager.default.fileExists(atPath: out + "/tracks/trip-\(ids[1]).gpx"))
        let gpx = try String(contentsOfFile: out + "/tracks/trip-\(ids[0]).gpx", encoding: .utf8)
        #expect(gpx.contains("driver Bob") && gpx.contains("<trkpt"), "\(gpx.prefix(400))")
        let journal = try String(contentsOfFile: out + "/.fairfuel-pull/trips.tsv", encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 1)
    }

    @Test func anInterruptedPullResumesWithoutDuplicates() throws {
        let fixture = try Self.fixture(replays: 8)
        let link = try Link(directory: fixture.directory)
        let out = fixture.directory + "/pull"
        // Slow pages so the server can be killed mid-stream.
        let slow = try Self.serve(fixture, link, extra: ["--test-page-delay-ms", "150"])
        let puller = try Background(FairFuelExecutable.path, [
            "pull", "--port", link.laptop, "--out", out, "--secret", fixture.secret, "--answer-timeout-ms", "500",
        ])
        #expect(Self.waitUntil(20) { puller.standardError.contains("pulled 3/") }, "\(puller.standardError)")
        slow.kill()  // the dongle goes away mid-pull
        puller.process.waitUntilExit()
        #expect(puller.process.terminationStatus != 0)
        #expect(puller.standardError.contains("run the same pull again to resume"), "\(puller.standardError)")
        let journal = try String(contentsOfFile: out + "/.fairfuel-pull/trips.tsv", encoding: .utf8)
        let partial = journal.split(separator: "\n").count
        #expect(partial >= 3 && partial < fixture.tripCount)

        let server = try Self.serve(fixture, link)
        defer { server.kill(SIGTERM) }
        let resumed = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("pulled \(fixture.tripCount - partial) new trip(s)"), "\(resumed.standardOutput)")
        let ids = try Self.pulledTripIDs(out)
        #expect(ids.count == fixture.tripCount)
        #expect(Set(ids).count == ids.count, "no trip twice")
    }

    /// Every file under `directory` (hidden ones too) and its bytes.
    static func snapshot(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: directory) ?? FileManager.DirectoryEnumerator() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + path))
        }
        return files
    }

    /// A pull folder holds one car. Another car's dongle pulled into it is refused before anything is
    /// written, whether the folder's pull finished or was interrupted (its resume then carries on):
    /// taking the van's trip list as the golf's would delete every golf trip the van does not list.
    @Test func anotherCarPulledIntoACarsFolderIsRefusedAndChangesNothing() throws {
        let golf = try Self.fixture(replays: 8)
        let van = try Self.fixture(replays: 2)
        #expect(try FairFuelExecutable.run(["vehicle", "set", "--name", "Golf", "--db", golf.db]).exitCode == 0)
        #expect(try FairFuelExecutable.run(["vehicle", "set", "--name", "Van", "--db", van.db]).exitCode == 0)
        let link = try Link(directory: golf.directory)
        let finished = golf.directory + "/golf", interrupted = golf.directory + "/golf-interrupted"
        let golfServer = try Self.serve(golf, link)
        let first = try Self.pull(link, out: finished, secret: golf.secret)
        #expect(first.exitCode == 0, "\(first.standardError)\n\(golfServer.standardError)")
        golfServer.kill(SIGTERM)
        let slow = try Self.serve(golf, link, extra: ["--test-page-delay-ms", "150"])
        let puller = try Background(FairFuelExecutable.path, [
            "pull", "--port", link.laptop, "--out", interrupted, "--secret", golf.secret, "--answer-timeout-ms", "500",
        ])
        #expect(Self.waitUntil(20) { puller.standardError.contains("pulled 3/") }, "\(puller.standardError)")
        slow.kill()
        puller.process.waitUntilExit()
        #expect(puller.process.terminationStatus != 0)
        let partial = try String(contentsOfFile: interrupted + "/.fairfuel-pull/trips.tsv", encoding: .utf8).split(separator: "\n").count
        #expect(partial >= 3 && partial < golf.tripCount)

        let before = (try Self.snapshot(finished), try Self.snapshot(interrupted))
        #expect(before.0.count > 6 && before.1[".fairfuel-pull/trips.tsv"] != nil)
        let vanServer = try Self.serve(van, link)
        for out in [finished, interrupted] {
            let refused = try Self.pull(link, out: out, secret: van.secret)
            // 1, as the pull's other refusals (a wrong secret, a locked dongle) exit.
            #expect(refused.exitCode == 1, "\(refused.standardOutput)\(refused.standardError)")
            #expect(refused.standardError.contains("\(out) holds the pull of another car ('Golf', vehicle id "), "\(refused.standardError)")
            #expect(refused.standardError.contains("this dongle is 'Van', vehicle id "), "\(refused.standardError)")
            #expect(refused.standardError.contains("Nothing was changed: pull this car into another folder (--out)"), "\(refused.standardError)")
            #expect(!refused.standardOutput.contains("removed here"))
        }
        #expect(try Self.snapshot(finished) == before.0, "the golf's finished pull is untouched")
        #expect(try Self.snapshot(interrupted) == before.1, "the golf's interrupted pull is untouched")
        // The van has a folder of its own.
        let vanPull = try Self.pull(link, out: golf.directory + "/van", secret: van.secret)
        #expect(vanPull.exitCode == 0, "\(vanPull.standardError)")
        vanServer.kill(SIGTERM)

        // The golf's own pulls carry on: nothing new in the finished one, the rest of the interrupted one.
        let server = try Self.serve(golf, link)
        defer { server.kill(SIGTERM) }
        let again = try Self.pull(link, out: finished, secret: golf.secret)
        #expect(again.exitCode == 0 && again.standardOutput.contains("pulled 0 new trip(s); \(finished) holds \(golf.tripCount) trip(s)\n"),
                "\(again.standardOutput)\(again.standardError)")
        let resumed = try Self.pull(link, out: interrupted, secret: golf.secret)
        #expect(resumed.exitCode == 0 && resumed.standardOutput.contains("pulled \(golf.tripCount - partial) new trip(s)"),
                "\(resumed.standardOutput)\(resumed.standardError)")
        let ids = try Self.pulledTripIDs(interrupted)
        #expect(ids.count == golf.tripCount && Set(ids).count == ids.count)
        let family = try FairFuelExecutable.run(["family", finished, golf.directory + "/van"])
        #expect(family.exitCode == 0, "two cars, each in its folder: \(family.standardError)")
    }

    @Test func aWrongSecretGetsNoDataAndLimitedTries() throws {
        let fixture = try Self.fixture(replays: 1)
        let link = try Link(directory: fixture.directory)
        let server = try Self.serve(fixture, link)
        defer { server.kill(SIGTERM) }
        let out = fixture.directory + "/stranger"
        let wrong = String(repeating: "0", count: 32)
        var messages: [String] = []
        for _ in 0..<3 {
            let result = try Self.pull(link, out: out, secret: wrong)
            #expect(result.exitCode != 0)
            messages.append(result.standardError)
        }
        #expect(messages[0].contains("wrong secret"), "\(messages[0])")
        #expect(messages[2].contains("refuses pairing for"), "the third failure locks: \(messages[2])")
        // While locked even the right secret is refused: tries are limited, not just counted.
        let locked = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(locked.exitCode != 0)
        #expect(locked.standardError.contains("refuses pairing"), "\(locked.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out + "/trips.json"))
        #expect(!FileManager.default.fileExists(atPath: out), "a refused pull writes nothing")
        #expect(server.standardError.contains("pairing failed (3 in a row), locked for"))
        // After the lock the right secret works.
        usleep(2_200_000)
        let right = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(right.exitCode == 0, "\(right.standardError)")
    }

    /// `pull --out ~/cars/golf` without `~/cars` failed, and only after pairing: the folder and its
    /// parents are made first, a refused pull takes away what it made, and a folder that cannot be
    /// made fails before the dongle's port is even opened.
    @Test func theOutFolderAndItsParentsAreMadeBeforePairing() throws {
        let fixture = try Self.fixture(replays: 1)
        let blocker = fixture.directory + "/not-a-folder"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let unmakeable = try FairFuelExecutable.run(
            ["pull", "--port", fixture.directory + "/no-such-port", "--out", blocker + "/golf", "--secret", fixture.secret])
        #expect(unmakeable.exitCode != 0)
        #expect(unmakeable.standardError.contains("cannot write into \(blocker)/golf"), "\(unmakeable.standardError)")
        #expect(!unmakeable.standardError.contains("no-such-port"), "the folder is checked before the port: \(unmakeable.standardError)")

        let link = try Link(directory: fixture.directory)
        let server = try Self.serve(fixture, link)
        defer { server.kill(SIGTERM) }
        let refused = try Self.pull(link, out: fixture.directory + "/stranger/deep/golf", secret: String(repeating: "0", count: 32))
        #expect(refused.exitCode != 0)
        #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/stranger"), "a refused pull leaves no folder behind")
        let out = fixture.directory + "/cars/family/golf"
        let result = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(result.exitCode == 0, "\(result.standardError)\n\(server.standardError)")
        #expect(FileManager.default.fileExists(atPath: out + "/trips.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasPrefix(".fairfuel-pull-probe-") })
    }

    @Test func garbageOnTheLineIsCountedAndTheServerStillServes() throws {
        let fixture = try Self.fixture(replays: 2)
        let link = try Link(directory: fixture.directory)
        let server = try Self.serve(fixture, link)
        defer { server.kill(SIGTERM) }
        #expect(Self.waitUntil(5) { server.standardError.contains("serving on") })
        // Noise from the laptop's side: a bad frame, a CRC error and an oversize run.
        let handle = try #require(FileHandle(forWritingAtPath: link.laptop))
        var noise: [UInt8] = [0x13, 0x37, 0x00, 0x05, 0x01, 0xC2, 0x01, 0x00, 0x77, 0x00]
        noise += [UInt8](repeating: 0x41, count: 400) + [0x00]
        // Then a babbling cable: 2000 short garbage frames.
        for _ in 0..<2_000 { noise += [0x41, 0x42, 0x43, 0x00] }
        handle.write(Data(noise))
        try handle.close()
        #expect(Self.waitUntil(5) { server.standardError.contains("line noise") }, "\(server.standardError)")
        let out = fixture.directory + "/pull"
        let result = try Self.pull(link, out: out, secret: fixture.secret)
        #expect(result.exitCode == 0, "\(result.standardError)\n\(server.standardError)")
        #expect(fixture.tripCount == 1)
        #expect(try Self.pulledTripIDs(out).count == fixture.tripCount)
        // Rate-limited: one line for the first garbage frame, the rest only counted (a line a minute).
        let noiseLines = server.standardError.split(separator: "\n").filter { $0.contains("usb pull: line noise") }
        #expect(noiseLines.count == 1, "\(noiseLines.count) noise lines:\n\(server.standardError.prefix(2_000))")
        #expect(noiseLines.first?.contains("more within a minute are only counted") == true)
    }
}
