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

    /// The real `fairfuel web --tls-cert --tls-key` in a process of its own (its own threads: a
    /// server inside the test process shares the two-thread pool with every suite running beside it).
    @Test func theAppServesHTTPSWithSecureCookiesAndPlainHTTPGetsNothing() throws {
        guard let credentials = try Self.credentials(), FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            print("skip: no openssl or curl here (apt-get install openssl curl)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: credentials.directory) }
        let db = try WebRig.store()
        let certificatePath = credentials.directory + "/cert.pem"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: FairFuelExecutable.path)
        server.arguments = [
            "web", "serve", "--db", db, "--listen", "127.0.0.1:0", "--tls-cert", certificatePath, "--tls-key", credentials.directory + "/key.pem",
        ]
        server.environment = ProcessInfo.processInfo.environment.merging(["FAIRFUEL_CONTROL": credentials.directory + "/none.sock"]) { $1 }
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        // "fairfuel web: serving DB on https://127.0.0.1:PORT/"
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let line = String(decoding: printed, as: UTF8.self)
        let port = line.components(separatedBy: "https://127.0.0.1:").last.flatMap { Int($0.prefix { $0.isNumber }) }
        guard let port else {
            Issue.record("fairfuel web did not say it serves HTTPS: \(line)")
            return
        }
        let https = try ProgramRun.run("/usr/bin/curl", ["-sS", "-i", "--cacert", certificatePath, "--max-time", "20", "https://127.0.0.1:\(port)/login"])
        let plain = try ProgramRun.run("/usr/bin/curl", ["-sS", "-i", "--max-time", "5", "http://127.0.0.1:\(port)/login"])
        // Verified against the certificate (no -k): the chain and its name are right.
        #expect(https.status == 0, "\(https.output)")
        #expect(https.output.hasPrefix("HTTP/1.1 200"), "\(https.output.prefix(300))")
        #expect(https.output.contains("name=\"username\""), "the login form over HTTPS")
        let cookieLines = https.output.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(!cookieLines.isEmpty && cookieLines.allSatisfy { $0.contains("Secure") }, "\(cookieLines)")
        #expect(plain.status != 0 || !plain.output.contains("HTTP/1.1 200"), "plain HTTP to the TLS port: \(plain.output.prefix(200))")
    }
}
