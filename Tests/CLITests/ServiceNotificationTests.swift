import Foundation
import Testing
import TestSupport

/// Every command that changes the store tells the running service, found as the service finds its
/// socket (the board profile `$FAIRFUEL_BOARD` names, `$FAIRFUEL_CONTROL`, `--control`), and says
/// whether it took the change. The service is a real `fairfuel run` started with `--board`, as
/// systemd starts `fairfueld` with the installed profile; its MCU port does not exist, so its link
/// stays down and its control socket answers.
@Suite(.serialized, .tags(.integration)) struct ServiceNotificationTests {
    /// A short directory: a Unix socket path has at most 107 bytes.
    static func temporaryDirectory() throws -> String {
        let directory = "/tmp/ffsn-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A board profile whose control socket and store are elsewhere, as a technician's profile might put them.
    static func writeBoard(_ directory: String, socket: String, store: String) throws -> String {
        let path = directory + "/board.toml"
        try "[control]\nsocket_path = \"\(socket)\"\n\n[store]\npath = \"\(store)\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func waitUntil(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    static func reloads(_ service: ChildProcess) -> Int {
        service.log.components(separatedBy: "provisioning reloaded").count - 1
    }

    @Test(.timeLimit(.minutes(2)))
    func theServiceTheBoardProfileNamesTakesEveryChange() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/control.sock"
        let db = directory + "/fairfuel.db"
        let board = try Self.writeBoard(directory, socket: socket, store: db)
        let environment = ["FAIRFUEL_BOARD": board]

        // No service yet: the profile's store is made, and the command says no service took it.
        let first = try FairFuelExecutable.run(["vehicle", "set", "--name", "Golf", "--currency", "EUR"], environment: environment)
        #expect(first.exitCode == 0, "\(first.standardError)")
        #expect(first.standardError.contains("no fairfuel service answers at \(socket)"), "\(first.standardError)")
        #expect(FileManager.default.fileExists(atPath: db), "the store the profile names")

        // Started as systemd starts fairfueld: the profile and nothing else.
        let service = try ChildProcess(
            FairFuelExecutable.path, ["run", "--board", board, "--port", directory + "/no-mcu"], logPath: directory + "/run.log")
        defer { service.stop() }
        let up = try Self.waitUntil(20) {
            guard service.isRunning else { return true }
            return try FairFuelExecutable.run(["status"], environment: environment).exitCode == 0
        }
        #expect(up && service.isRunning, "the service answers at \(socket): \(service.log)")

        let changes: [[String]] = [
            ["vehicle", "set", "--tank-l", "50"],
            ["provision", "driver", "add", "Anna"],
            ["provision", "driver", "rename", "Anna", "Anne"],
            ["refuel", "--at", "2026-11-20T10:00:00Z", "--liters", "40", "--cost", "70.00"],
            ["refuel", "--at", "2026-11-25T10:00:00Z", "--liters", "30", "--cost", "55.00"],
            ["refuel", "edit", "2", "--cost", "56.00"],
            ["refuel", "settle", "1"],
            ["refuel", "unsettle", "1"],
            ["provision", "pairing-secret", "--generate"],
            ["store", "prune"],
        ]
        for (index, arguments) in changes.enumerated() {
            let result = try FairFuelExecutable.run(arguments, environment: environment)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.contains("the running service at \(socket) took the change"),
                    "\(arguments): \(result.standardOutput)\(result.standardError)")
            #expect(Self.waitUntil(5) { Self.reloads(service) == index + 1 }, "\(arguments): \(service.log)")
        }
        // JSON stays JSON on standard output; the outcome goes to standard error.
        let json = try FairFuelExecutable.run(["refuel", "remove", "2", "--json"], environment: environment)
        #expect(json.exitCode == 0, "\(json.standardError)")
        #expect((try? JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))) != nil, "\(json.standardOutput)")
        #expect(json.standardError.contains("the running service at \(socket) took the change"), "\(json.standardError)")

        // --control wins over the profile, and commands that only read take it too.
        let elsewhere = directory + "/elsewhere.sock"
        for arguments in [["split"], ["refuel", "list"], ["refuel", "settle", "1"]] {
            let result = try FairFuelExecutable.run(arguments + ["--db", db, "--control", elsewhere], environment: environment)
            #expect(result.exitCode == 0, "\(arguments) --control: \(result.standardError)")
            #expect(!result.standardError.contains("give pull directories or --db"), "\(result.standardError)")
        }
        let settled = try FairFuelExecutable.run(["refuel", "unsettle", "1", "--db", db], environment: ["FAIRFUEL_CONTROL": socket])
        #expect(settled.standardOutput.contains("the running service at \(socket) took the change"), "$FAIRFUEL_CONTROL: \(settled.standardError)")

        // Stopped: the change is kept, and the command says no service took it.
        service.stop()
        let alone = try FairFuelExecutable.run(
            ["refuel", "--at", "2026-11-28T10:00:00Z", "--liters", "20", "--cost", "36.00"], environment: environment)
        #expect(alone.exitCode == 0, "\(alone.standardError)")
        #expect(!alone.standardOutput.contains("took the change"))
        #expect(alone.standardError.contains("no fairfuel service answers at \(socket)"), "\(alone.standardError)")
        #expect(try FairFuelExecutable.run(["refuel", "list", "--json"], environment: environment).standardOutput.contains("2026-11-28T10:00:00"))
        print("service notifications: \(Self.reloads(service)) reloads for \(changes.count + 2) changes")
    }

    /// `--experimental-dump-help` lists every command's options: wherever `--db` is, `--control` is.
    @Test func everyCommandThatTakesTheStoreTakesTheControlSocket() throws {
        let dump = try FairFuelExecutable.run(["--experimental-dump-help"])
        #expect(dump.exitCode == 0, "\(dump.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
        var withStore: [String] = []
        var missing: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let names = (command["arguments"] as? [[String: Any]] ?? []).flatMap { ($0["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
            // The hub's --db is the hub's own database of every car, not a car's store: no service to tell.
            if names.contains("db") && path.first != "hub" {
                withStore.append(path.joined(separator: " "))
                if !names.contains("control") { missing.append(path.joined(separator: " ")) }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as? String ?? "?"]) }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        #expect(withStore.count >= 30 && withStore.contains("split") && withStore.contains("refuel settle"), "\(withStore)")
        #expect(missing.isEmpty, "--db without --control: \(missing)")
    }

    /// A service that accepts and never answers: the change is kept, and the command says the
    /// service did not take it, within the reload's 2 s.
    @Test func aServiceThatDoesNotAnswerIsReported() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/control.sock"
        let listener = try ControlClientNoAnswerTests.SilentListener(path: socket)
        defer { listener.stop() }
        let db = directory + "/fairfuel.db"
        let result = try FairFuelExecutable.run(["vehicle", "set", "--name", "Golf", "--db", db, "--control", socket])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the fairfuel service at \(socket) did not answer within 2 s"), "\(result.standardError)")
        #expect(result.standardError.contains("the change is stored"), "\(result.standardError)")
        #expect(listener.accepted == 1)
    }
}
