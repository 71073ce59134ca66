import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `fairfuel sim` as a separate process: SIGTERM and SIGINT stop it at once and cleanly.
@Suite(.tags(.integration)) struct SimCommandTests {
    static let scenario = PackagePaths.root + "/scenarios/short-drive.scenario"

    /// Starts `fairfuel sim` with output to a file; `blocked` signals are blocked in its inherited mask,
    /// as a parent that watches signals with a signalfd passes them on.
    static func spawnSim(link: String, output: String, blocked: [Int32]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blocked { sigaddset(&mask, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let executable = FairFuelExecutable.path
        let arguments = [executable, "sim", scenario, "--speed", "1", "--link", link, "--quiet"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }

    /// Waits up to `seconds` for `pid` to end; its wait status, or nil if it still runs.
    static func waitForExit(_ pid: pid_t, seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return status }
            usleep(10_000)
        }
        return nil
    }

    @Test(.timeLimit(.minutes(1)), arguments: [
        (SIGTERM, [Int32]()), (SIGINT, []),
        // The parent's mask blocks both: a signal handler alone would never run.
        (SIGTERM, [SIGTERM, SIGINT]),
    ])
    func stopsPromptlyOnASignalAndRemovesItsLink(signal: Int32, blocked: [Int32]) throws {
        let directory = NSTemporaryDirectory() + "fairfuel-sim-signal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/mcu"
        let output = directory + "/output.txt"
        let pid = try Self.spawnSim(link: link, output: output, blocked: blocked)
        var finished = false
        defer { if !finished { kill(pid, SIGKILL); _ = Self.waitForExit(pid, seconds: 5) } }

        // The path is printed once the link points at the pseudo-terminal.
        let printed = Date().addingTimeInterval(20)
        while Date() < printed, !((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("open \(link)") {
            usleep(20_000)
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link))?.hasPrefix("/dev/pts/") == true)
        usleep(300_000)  // into the run loop

        kill(pid, signal)
        let status = Self.waitForExit(pid, seconds: 2)
        finished = status != nil
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let ended = try #require(status, "still running 2 s after signal \(signal): \(text)")
        #expect(ended & 0x7f == 0, "killed by signal \(ended & 0x7f)")
        #expect((ended >> 8) & 0xff == 0, "exit code \((ended >> 8) & 0xff): \(text)")
        #expect(text.contains("(stopped)"), "no summary: \(text)")
        #expect(!Self.linkExists(link), "the link is left behind")
    }

    static func linkExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
