import FairFuelReports
import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelSQLite
import FairFuelStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One integration test's world: a temporary directory with the store, the sim's link and the
/// control socket, the scenario's plan (the truth), and every child process started, which
/// `tearDown` kills by process group.
final class IntegrationRig: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: String
    let databasePath: String
    let linkPath: String
    let controlPath: String
    let scenarioPath: String
    let plan: SimPlan
    private(set) var children: [ChildProcess] = []
    private var sequence = 0

    /// A fresh directory, the fixture scenario planned, and its drivers provisioned in a new store.
    init(fixture: String) throws {
        // Short: a Unix socket path must fit in 108 bytes.
        directory = "/tmp/ffit-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        databasePath = directory + "/fairfuel.db"
        linkPath = directory + "/mcu"
        controlPath = directory + "/control.sock"
        scenarioPath = try Self.fixturePath(fixture)
        plan = try SimPlanner.plan(try SimScenarioParser.load(path: scenarioPath))
        try provisionDrivers()
    }

    static func fixturePath(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw Failure(description: "no fixture \(name)")
        }
        return url.path
    }

    /// Every driver of the scenario, with their tag's UID and their beacon, as a technician would.
    private func provisionDrivers() throws {
        for driver in plan.scenario.drivers {
            var arguments = ["provision", "driver", "add", driver.name, "--db", databasePath]
            if let tag = plan.tag(ofDriver: driver.name) {
                arguments += ["--tag", tag.uid.map { String(format: "%02X", $0) }.joined()]
            }
            if let beacon = driver.beacon { arguments += ["--beacon", beacon.spec] }
            let result = try cli(arguments)
            guard result.exitCode == 0 else { throw Failure(description: "provisioning \(driver.name): \(result.standardError)") }
        }
    }

    // MARK: Children

    /// Starts `fairfuel ARGUMENTS` in the background; its output goes to `NAME-N.out` and `.err`.
    func spawn(_ name: String, _ arguments: [String], executable: String = FairFuelExecutable.path) throws -> ChildProcess {
        sequence += 1
        let base = "\(directory)/\(name)-\(sequence)"
        let child = try ChildProcess(
            name: name, executable: executable, arguments: arguments,
            outputPath: base + ".out", errorPath: base + ".err")
        children.append(child)
        return child
    }

    /// `fairfuel sim` on the fixture, once it has printed the path to open.
    func startSim(speed: Double, idleSpeed: Double? = nil, extra: [String] = []) throws -> ChildProcess {
        var arguments = ["sim", scenarioPath, "--speed", "\(speed)", "--link", linkPath]
        if let idleSpeed { arguments += ["--idle-speed", "\(idleSpeed)"] }
        let sim = try spawn("sim", arguments + extra)
        try waitUntil("the sim prints the path to open", seconds: 60) {
            guard sim.isRunning else { throw Failure(description: "the sim ended early (\(sim.poll()!)): \(sim.standardError)") }
            return sim.standardOutput.contains("\nopen \(linkPath)")
        }
        return sim
    }

    /// `fairfuel run` on the sim's link, once its control socket answers.
    func startRun(extra: [String] = []) throws -> ChildProcess {
        let run = try spawn("run", ["run", "--port", linkPath, "--db", databasePath, "--control", controlPath] + extra)
        return try waitForService(run)
    }

    /// The daemon `fairfueld` (built beside `fairfuel`) instead of `fairfuel run`: the same options;
    /// `database` for a store elsewhere than the rig's.
    func startDaemon(extra: [String] = [], database: String? = nil) throws -> ChildProcess {
        let daemon = (FairFuelExecutable.path as NSString).deletingLastPathComponent + "/fairfueld"
        let run = try spawn(
            "fairfueld", ["--port", linkPath, "--db", database ?? databasePath, "--control", controlPath] + extra, executable: daemon)
        return try waitForService(run)
    }

    private func waitForService(_ run: ChildProcess) throws -> ChildProcess {
        try waitUntil("the service answers on its control socket", seconds: 60) {
            guard run.isRunning else { throw Failure(description: "run ended early (\(run.poll()!)): \(run.standardError)") }
            return status() != nil
        }
        return run
    }

    /// Kills every child's process group and removes the directory (kept when
    /// FAIRFUEL_KEEP_INTEGRATION=1, for a post-mortem).
    func tearDown() {
        for child in children { child.killGroup() }
        if ProcessInfo.processInfo.environment["FAIRFUEL_KEEP_INTEGRATION"] == "1" {
            print("integration rig kept at \(directory)")
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    // MARK: Talking to the service and the store

    func cli(_ arguments: [String]) throws -> CommandResult { try FairFuelExecutable.run(arguments) }

    /// `fairfuel status` as JSON; nil while the service is not answering.
    func status() -> ServiceStatus? {
        guard let result = try? cli(["status", "--json", "--control", controlPath]), result.exitCode == 0,
              let object = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        else { return nil }
        return ServiceStatus(json: object)
    }

    func endSession() throws -> String {
        let result = try cli(["session", "end", "--control", controlPath])
        guard result.exitCode == 0 else { throw Failure(description: "session end: \(result.standardError)") }
        return result.standardOutput
    }

    /// `fairfuel trips --json`, sessions only.
    func trips() throws -> [TripRow] {
        let result = try cli(["trips", "--json", "--db", databasePath])
        guard result.exitCode == 0, let rows = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]] else {
            throw Failure(description: "trips: \(result.standardError)")
        }
        // Sessions only: untracked driving has its own `u` ids (strings) and is not a trip of a driver.
        return rows.filter { $0["id"] is Int }.map(TripRow.init)
    }

    /// `fairfuel store check`: nil when the store is ok, else what it said.
    func storeProblems() throws -> String? {
        let result = try cli(["store", "check", "--full", "--db", databasePath])
        return result.exitCode == 0 && result.standardOutput.contains(": ok") ? nil : result.standardOutput + result.standardError
    }

    /// The store, read-only, for what the CLI does not show (trip points).
    func openStore() throws -> TripStore { try TripStore(path: databasePath, readOnly: true) }

    /// Metres of driving the service recorded without a session (nobody tapped).
    func untrackedMeters() throws -> Double {
        try openStore().connection.query("SELECT COALESCE(SUM(distance_m), 0) FROM untracked_driving") { $0.double(0) }.first ?? 0
    }

    /// Polls `condition` every 50 ms until it holds; throws with every child's output tail on timeout.
    func waitUntil(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(50_000)
        }
        throw Failure(description: "timed out after \(seconds) s waiting for \(what)\n\(diagnostics())")
    }

    /// Waits until `driver`'s session has covered `kilometers`, failing early if `run` (the service
    /// under test, when given) exits meanwhile.
    func waitUntilDriving(_ driver: String = "Anna", kilometers: Double, run: ChildProcess? = nil) throws {
        try waitUntil("\(driver)'s session past \(kilometers) km", seconds: IntegrationTests.patience) {
            if let run, !run.isRunning { throw Failure(description: "run ended: \(run.standardError)") }
            let status = status()
            return status?.driver == driver && (status?.sessionKilometers ?? 0) >= kilometers
        }
    }

    /// The last lines each child wrote, for failure messages.
    func diagnostics() -> String {
        children.map { child in
            let tail = (child.standardOutput + child.standardError).split(separator: "\n").suffix(12).joined(separator: "\n  ")
            return "\(child.name) (pid \(child.pid), \(child.poll().map(\.description) ?? "running")):\n  \(tail)"
        }.joined(separator: "\n")
    }
}

/// The parts of `fairfuel status` the tests read.
struct ServiceStatus {
    let json: [String: Any]

    var linkUp: Bool { json["link"] as? String == "up" }
    var reconnects: Int { json["reconnects"] as? Int ?? -1 }
    var firmware: String? { json["firmware"] as? String }
    var sessionState: String? { json["session_state"] as? String }
    var driver: String? { json["driver"] as? String }
    var sessionKilometers: Double? { json["session_km"] as? Double }
    var tripPointsWritten: Int { json["trip_points_written"] as? Int ?? 0 }
    var utcKnown: Bool { json["utc_known"] as? Bool ?? false }
    /// MCU reboots the service's link clock has seen (a HELLO whose uptime went back).
    var mcuReboots: Int { json["mcu_reboots"] as? Int ?? -1 }
    /// The receiver counters under the protocol's names (`frames`, `crc_error`, ...).
    func frames(_ name: String) -> Int { (json["frames"] as? [String: Any])?[name] as? Int ?? 0 }
    var linkErrors: Int {
        ["cobs_error", "crc_error", "oversize", "bad_version", "unknown_type", "bad_payload"].reduce(0) { $0 + frames($1) }
    }
}

/// One row of `fairfuel trips --json`.
struct TripRow {
    let json: [String: Any]
    init(_ json: [String: Any]) { self.json = json }

    var driver: String? { json["driver"] as? String }
    var endReason: String? { json["end_reason"] as? String }
    var distanceKilometers: Double { json["distance_km"] as? Double ?? -1 }
    var startUTC: String? { json["start_utc"] as? String }
    var endUTC: String? { json["end_utc"] as? String }
    var id: Int { json["id"] as? Int ?? -1 }
}

/// The summary line `fairfuel sim` prints when it stops:
/// `stopped at Mon 08:12:25 (reason): N frames, B bytes, D dropped, C corrupted, G garbage bursts, A ACKs, F FEEDBACK`.
struct SimSummary {
    var reason: String
    var framesSent: Int
    var bytesSent: Int
    var framesDropped: Int
    var framesCorrupted: Int
    var garbageBursts: Int
    var acks: Int
    var feedback: Int

    init?(output: String) {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("stopped at ") }),
              let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")"),
              let colon = line[close...].firstIndex(of: ":")
        else { return nil }
        reason = String(line[line.index(after: open)..<close])
        var numbers: [String: Int] = [:]
        for part in line[line.index(after: colon)...].split(separator: ",") {
            let words = part.split(separator: " ")
            guard let value = words.first.flatMap({ Int($0) }) else { return nil }
            numbers[words.dropFirst().joined(separator: " ")] = value
        }
        guard let sent = numbers["frames"], let bytes = numbers["bytes"], let dropped = numbers["dropped"],
              let corrupted = numbers["corrupted"], let bursts = numbers["garbage bursts"], let acks = numbers["ACKs"],
              let feedback = numbers["FEEDBACK"]
        else { return nil }
        framesSent = sent
        bytesSent = bytes
        framesDropped = dropped
        framesCorrupted = corrupted
        garbageBursts = bursts
        self.acks = acks
        self.feedback = feedback
    }
}
