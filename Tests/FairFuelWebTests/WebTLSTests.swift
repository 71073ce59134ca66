@testable import FairFuelWeb
import Foundation
import Testing
import TestSupport

/// HTTPS in the app itself: a certificate made by `openssl` now, the app serving it on a loopback
/// port, and `curl` as the client (the phone's browser's part). Cookies are Secure under TLS, plain
/// HTTP to the port gets nothing, and a key that is not the certificate's is refused at start.
@Suite(.serialized, .tags(.integration))
struct WebTLSTests {
    struct Credentials {
        var directory: String
        var certificate: [UInt8]
        var key: [UInt8]
        var otherKey: [UInt8]
    }

    /// `run` on a thread of its own: a blocking wait for curl on the concurrency pool (two cores,
    /// two threads) would starve the app's own handlers while other suites run, and curl would wait
    /// for an answer that cannot come.
    static func runOffThePool(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<(status: Int32, output: String), any Error>) in
            Thread { done.resume(with: Result { try ProgramRun.run(executable, arguments) }) }.start()
        }
    }

    static func credentials() throws -> Credentials? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { return nil }
        let directory = NSTemporaryDirectory() + "fairfuel-tls-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["key", "other"] {
            let made = try ProgramRun.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "\(directory)/\(name).pem"])
            #expect(made.status == 0, "\(made.output)")
        }
        let certificate = try ProgramRun.run("/usr/bin/openssl", [
            "req", "-x509", "-new", "-key", "\(directory)/key.pem", "-out", "\(directory)/cert.pem", "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        #expect(certificate.status == 0, "\(certificate.output)")
        func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).pem"))) }
        return Credentials(directory: directory, certificate: try bytes("cert"), key: try bytes("key"), otherKey: try bytes("other"))
    }

    @Test func aCertificateAndItsKeyMakeAServerAndAnythingElseIsAClearError() throws {
        guard let credentials = try Self.credentials() else {
            print("skip: no openssl to make a certificate with (apt-get install openssl)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: credentials.directory) }
        _ = try WebTLS(certificateChainPEM: credentials.certificate, privateKeyPEM: credentials.key).serverBuilder()
        let cases: [(WebTLS, String)] = [
            (WebTLS(certificateChainPEM: credentials.certificate, privateKeyPEM: credentials.otherKey), "does the key belong to the certificate?"),
            (WebTLS(certificateChainPEM: Array("not a certificate".utf8), privateKeyPEM: credentials.key), "no certificate"),
            (WebTLS(certificateChainPEM: credentials.certificate, privateKeyPEM: Array("-----BEGIN NOTHING-----\n".utf8)), "not a PEM private key"),
        ]
        for (tls, says) in cases {
            do {
                _ = try tls.serverBuilder()
                Issue.record("a bad certificate or key must be refused (\(says))")
            } catch {
                #expect("\(error)".contains(says) || "\(error)".contains("not a PEM certificate"), "\(error)")
            }
        }
        // The app refuses to be made with it: nothing would listen and fail later.
        var configuration = WebRig.configuration(try WebRig.store())
        configuration.tls = cases[0].0
        #expect(throws: WebError.self) { try WebApp(configuration: configuration) }
    }

    @Test func theAppServesHTTPSWithSecureCookiesAndPlainHTTPGetsNothing() async throws {
        guard let credentials = try Self.credentials(), FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            print("skip: no openssl or curl here (apt-get install openssl curl)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: credentials.directory) }
        let db = try WebRig.store()
        let certificatePath = credentials.directory + "/cert.pem"
        let tls = WebTLS(certificateChainPEM: credentials.certificate, privateKeyPEM: credentials.key)
        let outcome = try await WebRig.serve(db, tls: tls) { client in
            let https = try await Self.runOffThePool("/usr/bin/curl", [
                "-sS", "-i", "--cacert", certificatePath, "--max-time", "10", "https://127.0.0.1:\(client.port)/login",
            ])
            let plain = try await Self.runOffThePool("/usr/bin/curl", ["-sS", "-i", "--max-time", "5", "http://127.0.0.1:\(client.port)/login"])
            return (https, plain)
        }
        // Verified against the certificate (no -k): the chain and its name are right.
        #expect(outcome.0.status == 0, "\(outcome.0.output)")
        #expect(outcome.0.output.hasPrefix("HTTP/1.1 200"), "\(outcome.0.output.prefix(300))")
        #expect(outcome.0.output.contains("name=\"username\""), "the login form over HTTPS")
        let cookieLines = outcome.0.output.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(!cookieLines.isEmpty && cookieLines.allSatisfy { $0.contains("Secure") }, "\(cookieLines)")
        #expect(outcome.1.status != 0 || !outcome.1.output.contains("HTTP/1.1 200"), "plain HTTP to the TLS port: \(outcome.1.output.prefix(200))")
    }
}
