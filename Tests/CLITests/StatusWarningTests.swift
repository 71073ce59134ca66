import Foundation
import Testing
import TestSupport

/// `fairfuel status` prints the service's JSON as is, and tells a person on standard error
/// what a full disk cost (a stand-in service answers through socat).
@Suite(.tags(.integration)) struct StatusWarningTests {
    static let hasSocat = FileManager.default.isExecutableFile(atPath: "/usr/bin/socat")

    @Test(.enabled(if: hasSocat, "needs socat (scripts/install-deps.sh installs it)"))
    func lossesAndRefusedWritesAreSpelledOutButTheJSONStaysClean() throws {
        let directory = "/tmp/ffsw-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let json = #"{"link":"up","store_refusing_writes":true,"store_pending_records":3,"store_lost":{"session_start":0,"session_end":2,"untracked":0,"trip_point":340,"event":0},"store_lost_unsaved":0}"#
        try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/answer.json"))
        let socket = directory + "/control.sock"
        let service = Process()
        service.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        service.arguments = ["UNIX-LISTEN:\(socket),fork", "SYSTEM:read x; cat \(directory)/answer.json"]
        try service.run()
        // SIGKILL: a test process may hand its children SIGTERM blocked (signal-handling tests block it).
        defer { kill(service.processIdentifier, SIGKILL); service.waitUntilExit() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }

        let plain = try FairFuelExecutable.run(["status", "--control", socket])
        #expect(plain.exitCode == 0)
        // Plain status is text read from the JSON, every field on a line.
        #expect(plain.standardOutput.split(separator: "\n").contains { $0.hasPrefix("store_pending_records") && $0.hasSuffix(" 3") },
                "\(plain.standardOutput)")
        #expect(plain.standardError.contains("the store is refusing writes"))
        #expect(plain.standardError.contains("the store could not keep: session_end 2, trip_point 340"))
        let quiet = try FairFuelExecutable.run(["status", "--json", "--control", socket])
        #expect(quiet.standardOutput.trimmingCharacters(in: .newlines) == json)
        #expect(quiet.standardError.isEmpty)
    }
}
