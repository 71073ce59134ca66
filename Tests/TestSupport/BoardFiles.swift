import Foundation

/// The profile files shipped in `boards/`.
public enum BoardFiles {
    public static var directory: String { PackagePaths.root + "/boards" }

    /// File names ending in `.toml`, sorted.
    public static func all() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".toml") }.sorted()
    }

    /// Host board profiles: every `.toml` but the `mcu-` ones.
    public static func hostProfiles() throws -> [String] {
        try all().filter { !$0.hasPrefix("mcu-") }
    }

    public static func mcuProfiles() throws -> [String] {
        try all().filter { $0.hasPrefix("mcu-") }
    }

    public static func path(_ name: String) -> String { directory + "/" + name }

    public static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}
