import FairFuelEdges
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A certificate path that names a FIFO: refused before libmosquitto's `fopen` would block the
/// caller's loop, at the client's creation and at every retry (the file may be swapped in later).
@Suite struct MQTTCertificateFileTests {
    @Test(.timeLimit(.minutes(1))) func aFIFOIsRefusedAtCreationAndAtARetryWithoutBlocking() throws {
        let directory = NSTemporaryDirectory() + "fairfuel-tls-fifo-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = try #require(freeLoopbackPort())
        let caFile = directory + "/ca.crt"
        try #require(mkfifo(caFile, 0o600) == 0)
        let started = Date()
        #expect(throws: MQTTClientError.notARegularFile(role: "CA certificate", path: caFile, found: "a FIFO")) {
            _ = try MQTTClient(configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: port, clientID: "fifo", tls: MQTTTLSFiles(caFile: caFile)))
        }

        // A regular file when the client is made, a FIFO by the time it connects.
        try FileManager.default.removeItem(atPath: caFile)
        try "not yet a certificate\n".write(toFile: caFile, atomically: true, encoding: .utf8)
        let recorder = MQTTRecorder()
        let client = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: port, clientID: "swapped", backoffMinimumMs: 20, backoffMaximumMs: 40,
                tls: MQTTTLSFiles(caFile: caFile)),
            handlers: recorder.handlers)
        try FileManager.default.removeItem(atPath: caFile)
        try #require(mkfifo(caFile, 0o600) == 0)
        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 5) { recorder.errors.count >= 3 }, "each retry is refused in turn")
        #expect(recorder.errors.allSatisfy { $0 == .notARegularFile(role: "CA certificate", path: caFile, found: "a FIFO") }, "\(recorder.errors)")
        #expect(client.lastError?.description == "the CA certificate \(caFile) is a FIFO, not a regular file")
        #expect(Date().timeIntervalSince(started) < 3, "nothing blocked on the FIFO")
    }
}
