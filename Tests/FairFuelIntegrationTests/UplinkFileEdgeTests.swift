import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// Certificate paths that name something other than a regular file. libmosquitto `fopen`s them
    /// on the service's loop, where a FIFO with no writer would block the service for good: no
    /// `status`, no SIGTERM. The service refuses them before libmosquitto sees them, keeps the
    /// uplink off with the reason, and runs on. No broker is needed: nothing gets that far.
    @Suite struct UplinkFileEdgeTests {
        static func board(_ rig: IntegrationRig, tls: String) throws -> String {
            let path = rig.directory + "/uplink-board.toml"
            try """
                [uplink]
                url = "mqtts://127.0.0.1:1"
                backoff_min_ms = 100
                backoff_max_ms = 400
                \(tls)
                """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        @Test(.timeLimit(.minutes(1)), arguments: ["ca_file", "cert_file", "key_file"])
        func aFIFOForACertificateFileIsRefusedAndTheServiceStaysResponsive(key: String) throws {
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let fifo = rig.directory + "/\(key).fifo"
                #expect(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
                let real = rig.directory + "/real.pem"
                try "not used\n".write(toFile: real, atomically: true, encoding: .utf8)
                let files = ["ca_file", "cert_file", "key_file"].map { "\($0) = \"\($0 == key ? fifo : real)\"" }
                let board = try Self.board(rig, tls: files.joined(separator: "\n"))
                let run = try rig.spawn("run", [
                    FairFuelExecutable.path, "run", "--port", rig.linkPath, "--db", rig.databasePath, "--control", rig.controlPath,
                    "--board", board,
                ], executable: "/usr/bin/env")
                try rig.waitUntil("the service answers", seconds: 30) { rig.status() != nil }
                // Past the first connection attempts (the backoff is 100 to 400 ms): each is refused at once.
                usleep(1_500_000)
                let started = Date()
                let status = try #require(rig.status(), "status answers while the uplink is refused")
                let seconds = Date().timeIntervalSince(started)
                #expect(seconds < 1, "status took \(seconds) s")
                let uplink = try #require(status.json["uplink"] as? [String: Any])
                let role = ["ca_file": "CA certificate", "cert_file": "client certificate", "key_file": "client key"][key]!
                #expect(uplink["state"] as? String == "off", "\(uplink)")
                #expect(uplink["error"] as? String == "the \(role) \(fifo) is a FIFO, not a regular file", "\(uplink)")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0), "SIGTERM ends the service: \(run.standardError)")
                #expect(run.standardError.contains("uplink to mqtts://127.0.0.1:1 is off: the \(role) \(fifo) is a FIFO, not a regular file"),
                        "\(run.standardError)")
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func aDirectoryForTheCAIsRefusedToo() throws {
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let board = try Self.board(rig, tls: "ca_file = \"\(rig.directory)\"")
                let run = try rig.spawn("run", [
                    FairFuelExecutable.path, "run", "--port", rig.linkPath, "--db", rig.databasePath, "--control", rig.controlPath,
                    "--board", board,
                ], executable: "/usr/bin/env")
                try rig.waitUntil("the service answers", seconds: 30) { rig.status() != nil }
                let uplink = try #require(rig.status()?.json["uplink"] as? [String: Any])
                #expect(uplink["error"] as? String == "the CA certificate \(rig.directory) is a directory, not a regular file", "\(uplink)")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
            }
        }
    }
}
