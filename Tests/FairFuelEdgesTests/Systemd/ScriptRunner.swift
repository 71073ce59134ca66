import Foundation
import TestSupport

/// Runs a command with a bounded wait and returns its exit status and combined output.
enum ScriptRunner {
    struct Result {
        var status: Int32
        var output: String
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeoutSeconds: Double = 60) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let logPath = NSTemporaryDirectory() + "fairfuel-run-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? log.close()
            return Result(status: -1, output: "timed out after \(timeoutSeconds) s")
        }
        process.waitUntilExit()
        try? log.close()
        return Result(status: process.terminationStatus, output: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
    }

    /// The package's root directory.
    static var root: String { PackagePaths.root }
}
