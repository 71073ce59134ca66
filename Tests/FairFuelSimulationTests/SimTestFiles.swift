import Foundation

/// Files and links for the tests (Foundation is fine here, never in Sources/).
enum SimTestFiles {
    static func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "fairfuel-sim-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    static func linkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    static func sleep(milliseconds: Int) {
        usleep(useconds_t(milliseconds * 1000))
    }
}
