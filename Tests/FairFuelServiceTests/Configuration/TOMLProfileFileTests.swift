import FairFuelConfiguration
import FairFuelService
import Foundation
import Testing
import TestSupport

/// Profiles read from files by the runtime shell (`TOMLProfile+File.swift`, `MCUBoardCatalog+File.swift`).
@Suite struct TOMLProfileFileTests {
    @Test("load(path:) names the file in every error")
    func fileErrors() throws {
        let missing = try #require(throws: ProfileError.self) { try BoardProfile.load(path: "/nonexistent/board.toml") }
        guard case let .file(missingPath, _) = missing else {
            Issue.record("expected a file error, got \(missing)")
            return
        }
        #expect(missingPath == "/nonexistent/board.toml")
        #expect(missing.description.hasPrefix("cannot open /nonexistent/board.toml"))

        let path = NSTemporaryDirectory() + "fairfuel-board-\(getpid()).toml"
        try "[link]\nbuad = 115200\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bad = try #require(throws: ProfileError.self) { try BoardProfile.load(path: path) }
        #expect(bad.line == 2)
        #expect(bad.description.hasPrefix("\(path): line 2: unknown key 'buad' in [link] (did you mean 'baud'?)"))
    }

    /// A 10 MB string is a file too large to be a profile, not a string missing its quote (the file
    /// was once cut at 1 MiB and its string seen without an end); a FIFO is no profile at all.
    @Test(.timeLimit(.minutes(1))) func anOversizedProfileOrAFIFOIsRefusedAsSuch() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-board-limits-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let large = directory + "/board.toml"
        try ("[link]\nport = \"" + String(repeating: "x", count: 10 << 20) + "\"\n").write(toFile: large, atomically: true, encoding: .utf8)
        let tooLarge = try #require(throws: ProfileError.self) { try BoardProfile.load(path: large) }
        #expect(tooLarge.description == "\(large): the file is larger than 1024 KiB: not a FairFuel configuration file")
        let fifo = directory + "/fifo.toml"
        try #require(mkfifo(fifo, 0o600) == 0)
        let notAFile = try #require(throws: ProfileError.self) { try BoardProfile.load(path: fifo) }
        #expect(notAFile.description == "cannot read \(fifo): it is a FIFO, not a regular file")
    }

    @Test func theCatalogLoadsTheShippedMCUProfilesByPath() throws {
        let fromFiles = try MCUBoardCatalog.load(paths: try BoardFiles.mcuProfiles().map(BoardFiles.path))
        #expect(fromFiles == MCUBoardCatalog.builtIn)
    }
}
