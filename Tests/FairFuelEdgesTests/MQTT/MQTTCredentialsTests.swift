@testable import FairFuelEdges
import Foundation
import Testing

/// The broker credentials file: two lines, readable by its owner only, never shown.
@Suite struct MQTTCredentialsTests {
    static func file(_ text: String, mode: Int) throws -> String {
        let path = NSTemporaryDirectory() + "fairfuel-credentials-\(UUID().uuidString.prefix(8))"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, mode_t(mode))
        return path
    }

    @Test func anOwnerOnlyFileLoadsAndThePasswordIsNeverShown() throws {
        for (text, mode) in [("car-1\ns3cret: with spaces\n", 0o600), ("car-1\r\ns3cret: with spaces", 0o400)] {
            let path = try Self.file(text, mode: mode)
            defer { unlink(path) }
            let credentials = try MQTTCredentials.load(path: path)
            #expect(credentials == MQTTCredentials(username: "car-1", password: "s3cret: with spaces"))
            #expect(!"\(credentials)".contains("s3cret"))
            #expect(!String(reflecting: credentials).contains("s3cret"))
        }
    }

    @Test func anOpenMissingOrMalformedFileIsATypedError() throws {
        let open = try Self.file("car-1\npassword\n", mode: 0o644)
        defer { unlink(open) }
        #expect(throws: MQTTClientError.credentialsFileTooOpen(path: open, mode: UInt32(S_IFREG) | 0o644)) {
            _ = try MQTTCredentials.load(path: open)
        }
        #expect(throws: MQTTClientError.unreadableFile(role: "credentials file", path: "/nonexistent/mqtt", errnoCode: ENOENT)) {
            _ = try MQTTCredentials.load(path: "/nonexistent/mqtt")
        }
        for text in ["car-1\n", "\npassword\n", "car-1\npassword\nthird line\n", ""] {
            let path = try Self.file(text, mode: 0o600)
            defer { unlink(path) }
            #expect(throws: MQTTClientError.malformedCredentials(path: path), "\(text.debugDescription)") {
                _ = try MQTTCredentials.load(path: path)
            }
        }
    }
}
