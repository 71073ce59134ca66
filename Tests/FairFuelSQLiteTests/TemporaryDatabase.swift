import Foundation

/// A database path in a fresh temporary directory of its own.
func temporaryDatabasePath(_ name: String = "test") -> String {
    let directory = NSTemporaryDirectory() + "fairfuel-sqlite-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory + "/\(name).db"
}
