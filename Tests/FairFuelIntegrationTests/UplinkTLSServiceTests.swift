import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension IntegrationTests {
    /// The service's uplink over TLS against a real Mosquitto whose TLS listener the test
    /// configures, with a CA, broker and client certificates made by `openssl`: server-auth TLS
    /// with a password from `$CREDENTIALS_DIRECTORY`, mutual TLS, and the failures (a CA that did
    /// not sign the broker, an expired client certificate, a key that is not the certificate's),
    /// each a clear line and an error in `status` while the outbox keeps everything.
    @Suite(.enabled(
        if: MosquittoHarness.toolsPresent && MosquittoHarness.opensslPath != nil, "\(MosquittoHarness.missingMessage), or openssl"))
    struct UplinkTLSServiceTests {
        static func writeBoard(_ rig: IntegrationRig, port: Int, tls: String) throws -> String {
            let path = rig.directory + "/uplink-board.toml"
            try """
                [uplink]
                url = "mqtts://127.0.0.1:\(port)"
                keepalive_s = 5
                backoff_min_ms = 100
                backoff_max_ms = 400
                \(tls)
                """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        /// `fairfuel run` with `CREDENTIALS_DIRECTORY` set (as systemd's `LoadCredential=` does), once the service answers.
        static func start(_ rig: IntegrationRig, board: String, credentials: String? = nil) throws -> ChildProcess {
            let run = try rig.spawn(
                "run",
                (credentials.map { ["CREDENTIALS_DIRECTORY=\($0)"] } ?? []) + [
                    FairFuelExecutable.path, "run", "--port", rig.linkPath, "--db", rig.databasePath, "--control", rig.controlPath,
                    "--board", board,
                ],
                executable: "/usr/bin/env")
            try rig.waitUntil("the service answers", seconds: 30) { rig.status() != nil }
            return run
        }

        static func uplink(_ rig: IntegrationRig) -> [String: Any]? { UplinkServiceTests.uplink(rig) }

        /// Waits until the outbox is empty, stops the service, and checks that `hub` got every
        /// message exactly once by `message_id`, and each refuel once by its id.
        static func expectEverythingArrives(
            _ rig: IntegrationRig, _ run: ChildProcess, hub: TestSupport.ChildProcess, vehicle: String, refuels: Int
        ) throws {
            try rig.waitUntil("the outbox is empty", seconds: 10) { uplink(rig)?["pending"] as? Int == 0 }
            let sent = try #require(uplink(rig)?["sent"] as? Int)
            #expect(sent >= refuels * 2, "each refuel and its split")
            run.send(SIGTERM)
            #expect(run.wait(seconds: 5) == .exited(0))
            var received: [(kind: String, json: [String: Any], text: String)] = []
            try rig.waitUntil("the subscriber has every message", seconds: 5) {
                received = UplinkServiceTests.records(hub.log, vehicle: vehicle)
                return received.count >= sent
            }
            usleep(200_000)
            received = UplinkServiceTests.records(hub.log, vehicle: vehicle)
            let messageIDs = received.compactMap { $0.json["message_id"] as? Int }
            #expect(messageIDs.count == sent && Set(messageIDs).count == sent, "each message once: \(messageIDs), \(sent) sent")
            let refuelIDs = received.filter { $0.kind == "refuel" }.compactMap { $0.json["id"] as? Int }
            #expect(refuelIDs.count == refuels && Set(refuelIDs).count == refuels, "each refuel once: \(refuelIDs)")
        }

        @Test(.timeLimit(.minutes(1)))
        func serverAuthenticatedTLSWithAPasswordFromTheCredentialsDirectory() throws {
            let password = "tls-secret-\(UInt32.random(in: 100_000...999_999))"
            let harness = try MosquittoHarness(users: [("car", password)], tls: true, requireCertificate: false)
            defer { harness.shutDown() }
            let certificates = try #require(harness.certificates)
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                let board = try Self.writeBoard(rig, port: harness.port, tls: "ca_file = \"\(certificates.caFile)\"\ncredentials = \"mqtt\"")
                let credentials = rig.directory + "/credentials"
                try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
                try "car\n\(password)\n".write(toFile: credentials + "/mqtt", atomically: true, encoding: .utf8)
                chmod(credentials + "/mqtt", 0o400)
                let hub = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 1_000, seconds: 20)
                let run = try Self.start(rig, board: board, credentials: credentials)
                try rig.waitUntil("the uplink connects over TLS", seconds: 10) { Self.uplink(rig)?["state"] as? String == "connected" }
                try UplinkServiceTests.addRefuels(rig, board: board, count: 2)
                let status = try #require(rig.status())
                try Self.expectEverythingArrives(rig, run, hub: hub, vehicle: vehicle, refuels: 2)
                #expect(run.standardError.contains("uplink connected to mqtts://127.0.0.1:\(harness.port)"), "\(run.standardError)")
                #expect(!run.standardError.contains(password), "the password is never logged")
                #expect(!"\(status.json)".contains(password), "nor shown by status")
                #expect(harness.brokerLog.contains("u'car'"), "the broker saw the user name over TLS")
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func mutualTLSWithTheCertificateAsUserName() throws {
            let harness = try MosquittoHarness(tls: true, identityAsUsername: true)
            defer { harness.shutDown() }
            let certificates = try #require(harness.certificates)
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                let board = try Self.writeBoard(rig, port: harness.port, tls: """
                    ca_file = "\(certificates.caFile)"
                    cert_file = "\(certificates.clientCertFile)"
                    key_file = "\(certificates.clientKeyFile)"
                    """)
                let hub = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 1_000, seconds: 20)
                let run = try Self.start(rig, board: board)
                try rig.waitUntil("the uplink connects with its certificate", seconds: 10) {
                    Self.uplink(rig)?["state"] as? String == "connected"
                }
                try UplinkServiceTests.addRefuels(rig, board: board, count: 2)
                try Self.expectEverythingArrives(rig, run, hub: hub, vehicle: vehicle, refuels: 2)
                #expect(harness.brokerLog.contains("u'test-car'"), "the broker took the certificate's CN as the user name")
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func aCAThatDidNotSignTheBrokerIsOneClearLineAndLosesNothing() throws {
            let harness = try MosquittoHarness(tls: true, requireCertificate: false)
            defer { harness.shutDown() }
            let certificates = try #require(harness.certificates)
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                let otherCA = try MosquittoHarness.makeCA(named: "other-ca", in: rig.directory)
                var board = try Self.writeBoard(rig, port: harness.port, tls: "ca_file = \"\(otherCA)\"")
                var run = try Self.start(rig, board: board)
                try UplinkServiceTests.addRefuels(rig, board: board, count: 1)
                try rig.waitUntil("a few refused handshakes", seconds: 10) {
                    (Self.uplink(rig)?["connects"] as? Int) == 0 && ((Self.uplink(rig)?["error"] as? String)?.contains("certificate") ?? false)
                }
                usleep(1_000_000)
                let refused = try #require(Self.uplink(rig))
                #expect(refused["error"] as? String == "TLS with the broker failed: certificate verify failed", "\(refused)")
                #expect(refused["sent"] as? Int == 0)
                #expect((refused["pending"] as? Int ?? 0) >= 2, "the refuel and its split wait: \(refused)")
                run.send(SIGTERM)
                #expect(run.wait(seconds: 5) == .exited(0))
                let lines = run.standardError.split(separator: "\n").filter { $0.contains("uplink to") }
                #expect(lines.count == 1, "one line, not one per attempt: \(lines)")
                #expect(lines.first?.contains("TLS with the broker failed: certificate verify failed") == true, "\(lines)")

                // The board fixed (the CA that signed the broker) and the service restarted: what waited goes out.
                board = try Self.writeBoard(rig, port: harness.port, tls: "ca_file = \"\(certificates.caFile)\"")
                let hub = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 1_000, seconds: 20)
                run = try Self.start(rig, board: board)
                try Self.expectEverythingArrives(rig, run, hub: hub, vehicle: vehicle, refuels: 1)
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func anExpiredClientCertificateOrAWrongKeyIsAClearErrorAndLosesNothing() throws {
            let harness = try MosquittoHarness(tls: true)
            defer { harness.shutDown() }
            let certificates = try #require(harness.certificates)
            try IntegrationTests.withRig("two-drivers.scenario") { rig in
                let vehicle = try rig.openStore().vehicleUplinkID()
                // Signed by the broker's CA, valid for -1 days: it expired a day ago (OpenSSL 3.0 has no -not_after).
                let expired = try MosquittoHarness.makeClientCertificate(
                    named: "expired", caFile: certificates.caFile, days: -1, in: rig.directory)
                func board(cert: String, key: String) throws -> String {
                    try Self.writeBoard(rig, port: harness.port, tls: """
                        ca_file = "\(certificates.caFile)"
                        cert_file = "\(cert)"
                        key_file = "\(key)"
                        """)
                }
                func refusal(_ board: String, expected: String) throws {
                    let run = try Self.start(rig, board: board)
                    try rig.waitUntil("a refused attempt naming the cause", seconds: 10) {
                        (Self.uplink(rig)?["error"] as? String)?.contains(expected) == true
                    }
                    usleep(500_000)
                    let refused = try #require(Self.uplink(rig))
                    #expect((refused["error"] as? String)?.contains(expected) == true, "\(refused)")
                    #expect(refused["connects"] as? Int == 0)
                    #expect(refused["sent"] as? Int == 0)
                    #expect((refused["pending"] as? Int ?? 0) >= 2, "the refuel and its split wait: \(refused)")
                    run.send(SIGTERM)
                    #expect(run.wait(seconds: 5) == .exited(0))
                    let lines = run.standardError.split(separator: "\n").filter { $0.contains("uplink to") }
                    // One line naming the cause; before it at most one saying the broker reset the session
                    // (its reset can overtake its alert, see MQTTClient.mapError).
                    #expect(lines.filter { $0.contains(expected) }.count == 1, "\(lines)")
                    #expect(lines.count == 1 || (lines.count == 2 && lines[0].contains("ended the session before CONNACK")), "\(lines)")
                }
                let expiredBoard = try board(cert: expired.certFile, key: expired.keyFile)
                try UplinkServiceTests.addRefuels(rig, board: expiredBoard, count: 1)
                try refusal(expiredBoard, expected: "TLS with the broker failed: sslv3 alert certificate expired")
                // The right certificate with another certificate's key: refused before anything is sent.
                try refusal(
                    try board(cert: certificates.clientCertFile, key: expired.keyFile),
                    expected: "TLS with the broker failed: Unable to load client key file \"\(expired.keyFile)\"; key values mismatch")

                let hub = try harness.subscribe(topic: "fairfuel/\(vehicle)/#", count: 1_000, seconds: 20)
                let run = try Self.start(rig, board: try board(cert: certificates.clientCertFile, key: certificates.clientKeyFile))
                try Self.expectEverythingArrives(rig, run, hub: hub, vehicle: vehicle, refuels: 1)
            }
        }
    }
}
