import Foundation

/// Runs the built `fairfuel` executable and captures what it prints.
public struct CommandResult: Sendable {
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String
}

public enum FairFuelExecutable {
    /// The `fairfuel` binary next to the test bundle in the build directory.
    public static var path: String {
        var directory = Bundle.main.bundleURL
        // swift-testing and XCTest runners live in .build/<config>/; the bundle may be nested.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("fairfuel").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return PackagePaths.root + "/.build/debug/fairfuel"
    }

    /// Runs `fairfuel arguments...`, optionally feeding `input` on standard input.
    public static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inPipe = Pipe()
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let errThread = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        errThread.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errThread.isFinished { usleep(1000) }
        return CommandResult(
            exitCode: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }
}

/// Golden files: compared in tests, rewritten when FAIRFUEL_REGENERATE_GOLDEN=1.
public enum Golden {
    public static var regenerating: Bool {
        ProcessInfo.processInfo.environment["FAIRFUEL_REGENERATE_GOLDEN"] == "1"
    }

    /// Returns the stored golden text at `path`, first rewriting it with `actual` when regenerating.
    public static func expected(at path: String, actual: String) throws -> String {
        if regenerating {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
