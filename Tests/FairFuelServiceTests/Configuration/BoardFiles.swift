import Foundation
import TestSupport

/// The profile files shipped in `boards/`.
enum BoardFiles {
    static var directory: String { PackagePaths.root + "/boards" }

    /// File names ending in `.toml`, sorted.
    static func all() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".toml") }.sorted()
    }

    /// Host board profiles: every `.toml` but the `mcu-` ones.
    static func hostProfiles() throws -> [String] {
        try all().filter { !$0.hasPrefix("mcu-") }
    }

    static func mcuProfiles() throws -> [String] {
        try all().filter { $0.hasPrefix("mcu-") }
    }

    static func path(_ name: String) -> String { directory + "/" + name }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}
