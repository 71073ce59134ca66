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

    @Test func theCatalogLoadsTheShippedMCUProfilesByPath() throws {
        let fromFiles = try MCUBoardCatalog.load(paths: try BoardFiles.mcuProfiles().map(BoardFiles.path))
        #expect(fromFiles == MCUBoardCatalog.builtIn)
    }
}
