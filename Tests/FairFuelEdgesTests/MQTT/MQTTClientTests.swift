@testable import FairFuelEdges
import Foundation
import Testing
import TestSupport

/// What a client's handlers heard, in order.
final class MQTTRecorder {
    enum Event: Equatable {
        case connected
        case acknowledged(messageID: Int32, reasonCode: Int32)
        case disconnected(MQTTClientError, abandoned: Int)
    }

    var events: [Event] = []
    var acknowledged: [Int32] { events.compactMap { if case let .acknowledged(id, _) = $0 { id } else { nil } } }
    var connects: Int { events.filter { $0 == .connected }.count }
    var errors: [MQTTClientError] { events.compactMap { if case let .disconnected(error, _) = $0 { error } else { nil } } }

    var handlers: MQTTClient.Handlers {
        MQTTClient.Handlers(
            connected: { [unowned self] in events.append(.connected) },
            acknowledged: { [unowned self] in events.append(.acknowledged(messageID: $0, reasonCode: $1)) },
            disconnected: { [unowned self] in events.append(.disconnected($0, abandoned: $1)) })
    }
}

/// The poll loop a runtime would run: poll the client's descriptor until its next deadline, then service it.
enum MQTTPump {
    static func nowMs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// Runs the loop until `done` holds or `seconds` pass; returns whether `done` held.
    @discardableResult
    static func run(_ client: MQTTClient, seconds: Double, until done: () -> Bool) -> Bool {
        let deadline = nowMs() + Int64(seconds * 1_000)
        while !done() {
            let now = nowMs()
            guard now < deadline else { return false }
            let wake = min(client.nextServiceMs(nowMs: now) ?? deadline, deadline)
            let timeout = Int32(clamping: max(0, wake - now))
            // Between attempts (no socket) `done` is checked at least every 50 ms.
            let ready = client.waitForReadiness(timeoutMs: client.descriptor == nil ? min(timeout, 50) : timeout)
            client.service(readable: ready.readable, writable: ready.writable, nowMs: nowMs())
        }
        return true
    }
}

@Suite(.serialized, .tags(.integration)) struct MQTTClientTests {
    static func configuration(
        _ harness: MosquittoHarness, version: MQTTProtocolVersion = .v311, id: String = "test-car",
        credentials: MQTTCredentials? = nil, will: MQTTLastWill? = nil
    ) -> MQTTClientConfiguration {
        MQTTClientConfiguration(
            host: "127.0.0.1", port: harness.port, clientID: id, protocolVersion: version, keepAliveSeconds: 5,
            backoffMinimumMs: 50, backoffMaximumMs: 400, backoffJitterPercent: 0, connectTimeoutMs: 3_000, credentials: credentials,
            lastWill: will)
    }

    @Test(
        "QoS 1 publish: the PUBACK reaches the client, mosquitto_sub receives every message in order",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)),
        arguments: [MQTTProtocolVersion.v311, .v5])
    func publishQoS1(version: MQTTProtocolVersion) throws {
        let harness = try MosquittoHarness()
        defer { harness.shutDown() }
        let subscriber = try harness.subscribe(topic: "fairfuel/test-car/#", count: 5)
        let recorder = MQTTRecorder()
        let client = try MQTTClient(configuration: Self.configuration(harness, version: version), handlers: recorder.handlers)
        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected }, "\(client.lastError as Any) \(harness.logs)")
        var messageIDs: [Int32] = []
        for index in 1...5 {
            messageIDs.append(try client.publish(topic: "fairfuel/test-car/trip", payload: Array("{\"id\":\(index)}".utf8), retained: false))
        }
        #expect(Set(messageIDs).count == 5)
        #expect(client.inflight == 5)
        #expect(MQTTPump.run(client, seconds: 5) { recorder.acknowledged.count == 5 })
        #expect(recorder.acknowledged.sorted() == messageIDs.sorted())
        #expect(recorder.events.contains { if case .acknowledged(_, let code) = $0 { code != 0 } else { false } } == false)
        #expect(client.inflight == 0)
        #expect(client.counters.acknowledged == 5)
        let lines = harness.lines(of: subscriber)
        #expect(lines == (1...5).map { "fairfuel/test-car/trip {\"id\":\($0)}" }, "\(harness.logs)")
        client.stop()
        #expect(client.state == .stopped)
        #expect(throws: MQTTClientError.notConnected) { try client.publish(topic: "t", payload: [1], retained: false) }
    }

    @Test(
        "broker stopped mid-stream and restarted: backoff doubles to its cap, the client reconnects and publishing resumes",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)))
    func brokerRestart() throws {
        let harness = try MosquittoHarness()
        defer { harness.shutDown() }
        let recorder = MQTTRecorder()
        let client = try MQTTClient(configuration: Self.configuration(harness), handlers: recorder.handlers)
        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected })
        for index in 1...3 { _ = try client.publish(topic: "fairfuel/test-car/trip", payload: Array("\(index)".utf8), retained: false) }
        #expect(MQTTPump.run(client, seconds: 5) { recorder.acknowledged.count == 3 })

        harness.stop()
        #expect(MQTTPump.run(client, seconds: 5) { !recorder.errors.isEmpty })
        guard case .connectionLost = recorder.errors.first else {
            Issue.record("expected connectionLost, got \(recorder.errors)")
            return
        }
        #expect(throws: MQTTClientError.notConnected) { try client.publish(topic: "fairfuel/test-car/trip", payload: [1], retained: false) }
        // Attempts against a stopped broker: each one waits twice as long as the one before, up to 400 ms.
        var delays: [Int64] = []
        var lastFailures = client.failures
        MQTTPump.run(client, seconds: 3) {
            if client.failures != lastFailures, case let .waiting(retryAtMs) = client.state {
                delays.append(retryAtMs - MQTTPump.nowMs())
                lastFailures = client.failures
            }
            return delays.count >= 5
        }
        #expect(delays.count >= 5)
        #expect(recorder.errors.dropFirst().allSatisfy { if case .unreachable = $0 { true } else { false } }, "\(recorder.errors)")
        // Scheduled delays as seen a moment after scheduling: 100, 200, 400, 400, 400 ms (less a few ms).
        let expected: [Int64] = [100, 200, 400, 400, 400]
        for (delay, want) in zip(delays, expected) { #expect(delay <= want && delay >= want - 40, "\(delays)") }

        try harness.start()
        let subscriber = try harness.subscribe(topic: "fairfuel/test-car/trip", count: 3)
        #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected }, "\(client.lastError as Any)")
        #expect(recorder.connects == 2)
        #expect(client.failures == 0)
        for index in 4...6 { _ = try client.publish(topic: "fairfuel/test-car/trip", payload: Array("\(index)".utf8), retained: false) }
        #expect(MQTTPump.run(client, seconds: 5) { recorder.acknowledged.count == 6 })
        #expect(harness.lines(of: subscriber) == ["fairfuel/test-car/trip 4", "fairfuel/test-car/trip 5", "fairfuel/test-car/trip 6"])
        #expect(client.counters.disconnects == 1)
        client.stop()
    }

    @Test(
        "a wrong password is a typed refusal, retried with backoff; the right one connects",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)),
        arguments: [MQTTProtocolVersion.v311, .v5])
    func wrongPassword(version: MQTTProtocolVersion) throws {
        let harness = try MosquittoHarness(users: [("car-1", "right horse battery")])
        defer { harness.shutDown() }
        let recorder = MQTTRecorder()
        let wrong = MQTTCredentials(username: "car-1", password: "wrong staple")
        let client = try MQTTClient(configuration: Self.configuration(harness, version: version, credentials: wrong), handlers: recorder.handlers)
        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 5) { recorder.errors.count >= 2 })
        // Mosquitto 2 answers a bad password with "not authorised" (CONNACK 5, MQTT 5: 0x87), not 4 / 0x86.
        #expect(Array(recorder.errors.prefix(2)) == [.notAuthorized, .notAuthorized], "\(recorder.errors)")
        #expect(recorder.connects == 0)
        #expect(!"\(recorder.errors) \(wrong)".contains("wrong staple"))
        if case .waiting = client.state {} else { Issue.record("expected a retry to be scheduled, got \(client.state)") }

        let right = try MQTTClient(
            configuration: Self.configuration(harness, version: version, id: "car-1b", credentials: MQTTCredentials(username: "car-1", password: "right horse battery")))
        right.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(right, seconds: 5) { right.state == .connected }, "\(right.lastError as Any)")
    }

    /// The sample ACL of docs/mqtt.md, read from the document itself.
    static func documentedACL() throws -> String {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/mqtt.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        // Between fences only (odd pieces): the prose names the pattern too.
        let blocks = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        return try #require(blocks.first { $0.contains("pattern write fairfuel/%u/#") }, "docs/mqtt.md has no ACL sample")
    }

    @Test(
        "the ACL of docs/mqtt.md: a car publishes under its own id only, MQTT 5 reports the refusal, the hub reads",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)))
    func documentedACLKeepsEachCarUnderItsOwnID() throws {
        let harness = try MosquittoHarness(
            users: [("fairfuel-hub", "hub pass"), ("car-a", "car a pass"), ("car-b", "car b pass")], acl: try Self.documentedACL())
        defer { harness.shutDown() }
        let hub = try harness.subscribe(topic: "fairfuel/#", count: 2, seconds: 2)
        let recorder = MQTTRecorder()
        let client = try MQTTClient(
            configuration: Self.configuration(
                harness, version: .v5, id: "car-a", credentials: MQTTCredentials(username: "car-a", password: "car a pass")),
            handlers: recorder.handlers)
        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected }, "\(client.lastError as Any)")
        let forged = try client.publish(topic: "fairfuel/car-b/trip", payload: Array("forged".utf8), retained: false)
        let own = try client.publish(topic: "fairfuel/car-a/trip", payload: Array("own".utf8), retained: false)
        #expect(MQTTPump.run(client, seconds: 5) { recorder.acknowledged.count == 2 })
        #expect(recorder.events.contains(.acknowledged(messageID: forged, reasonCode: 0x87)), "\(recorder.events)")
        #expect(recorder.events.contains(.acknowledged(messageID: own, reasonCode: 0)))
        #expect(client.counters.rejected == 1)
        #expect(client.counters.acknowledged == 1)
        let lines = harness.lines(of: hub, seconds: 5).filter { $0.hasPrefix("fairfuel/") }
        #expect(lines == ["fairfuel/car-a/trip own"], "\(harness.logs)")
        client.stop()
    }

    @Test(
        "the ACL of docs/mqtt.md: a car writes Home Assistant discovery under its own id only; the hub reads and writes nothing",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)))
    func documentedACLKeepsDiscoveryUnderEachCarsID() throws {
        let harness = try MosquittoHarness(
            users: [("fairfuel-hub", "hub pass"), ("car-a", "car a pass"), ("car-b", "car b pass"), ("homeassistant", "ha pass")],
            acl: try Self.documentedACL())
        defer { harness.shutDown() }
        // Home Assistant's user reads the discovery topics.
        let watcher = try harness.subscribe(topic: "homeassistant/#", count: 1, seconds: 3, user: ("homeassistant", "ha pass"))
        func publishes(_ user: String, _ password: String, _ topics: [String]) throws -> [Int32] {
            let recorder = MQTTRecorder()
            let client = try MQTTClient(
                configuration: Self.configuration(
                    harness, version: .v5, id: user + "-ha", credentials: MQTTCredentials(username: user, password: password)),
                handlers: recorder.handlers)
            defer { client.stop() }
            client.start(nowMs: MQTTPump.nowMs())
            #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected }, "\(client.lastError as Any)")
            var ids: [Int32] = []
            for topic in topics { ids.append(try client.publish(topic: topic, payload: Array("{}".utf8), retained: true)) }
            #expect(MQTTPump.run(client, seconds: 5) { recorder.acknowledged.count == topics.count })
            return ids.map { id in
                recorder.events.compactMap { if case let .acknowledged(messageID, reason) = $0, messageID == id { reason } else { nil } }.first ?? -1
            }
        }
        let car = try publishes("car-a", "car a pass", [
            "homeassistant/sensor/car-b/driver/config", "homeassistant/sensor/car-a/driver/config",
            "homeassistant/device_tracker/car-a/position/config",
        ])
        #expect(car == [0x87, 0, 0], "another car's discovery refused, its own accepted")
        let hub = try publishes("fairfuel-hub", "hub pass", ["fairfuel/car-a/status", "homeassistant/sensor/car-a/driver/config"])
        #expect(hub == [0x87, 0x87], "the hub writes nothing")
        let lines = harness.lines(of: watcher, seconds: 5).filter { $0.hasPrefix("homeassistant/") }
        #expect(lines == ["homeassistant/sensor/car-a/driver/config {}"], "\(harness.logs)")
    }

    @Test(
        "nothing listening is unreachable; a missing certificate is refused before any attempt",
        .enabled(if: MosquittoHarness.toolsPresent, "\(MosquittoHarness.missingMessage)"), .timeLimit(.minutes(1)))
    func unreachableAndUnreadable() throws {
        let port = try #require(freeLoopbackPort())
        let recorder = MQTTRecorder()
        let client = try MQTTClient(
            configuration: MQTTClientConfiguration(host: "127.0.0.1", port: port, clientID: "lonely", backoffMinimumMs: 20, backoffMaximumMs: 40),
            handlers: recorder.handlers)
        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 3) { !recorder.errors.isEmpty })
        #expect(recorder.errors.first == .unreachable(host: "127.0.0.1", port: port, errnoCode: ECONNREFUSED), "\(recorder.errors)")

        let missing = "/nonexistent/fairfuel-ca.crt"
        #expect(throws: MQTTClientError.unreadableFile(role: "CA certificate", path: missing, errnoCode: ENOENT)) {
            _ = try MQTTClient(configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: port, clientID: "x", tls: MQTTTLSFiles(caFile: missing)))
        }
    }

    @Test(
        "a listener that never answers CONNECT times out as unreachable; a certificate gone before a retry is a typed error",
        .timeLimit(.minutes(1)))
    func connectTimeoutAndVanishedCertificate() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound && listen(listener, 4) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        // The kernel completes the TCP handshake; nobody reads the CONNECT.
        let recorder = MQTTRecorder()
        let client = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: port, clientID: "patient", backoffMinimumMs: 20, backoffMaximumMs: 40, connectTimeoutMs: 300),
            handlers: recorder.handlers)
        let started = MQTTPump.nowMs()
        client.start(nowMs: started)
        #expect(MQTTPump.run(client, seconds: 5) { !recorder.errors.isEmpty })
        #expect(recorder.errors.first == .unreachable(host: "127.0.0.1", port: port, errnoCode: ETIMEDOUT))
        #expect(MQTTPump.nowMs() - started >= 300)

        let directory = NSTemporaryDirectory() + "fairfuel-tls-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let caFile = directory + "/ca.crt"
        try "not yet a certificate\n".write(toFile: caFile, atomically: true, encoding: .utf8)
        let vanishing = MQTTRecorder()
        let tlsClient = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: port, clientID: "vanishing", backoffMinimumMs: 20, backoffMaximumMs: 40,
                tls: MQTTTLSFiles(caFile: caFile)),
            handlers: vanishing.handlers)
        try FileManager.default.removeItem(atPath: caFile)
        tlsClient.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(tlsClient, seconds: 5) { !vanishing.errors.isEmpty })
        #expect(vanishing.errors.first == .unreadableFile(role: "CA certificate", path: caFile, errnoCode: ENOENT))
        #expect(tlsClient.lastError == vanishing.errors.first)
    }

    @Test(
        "TLS with a CA, broker and client certificate made by openssl; without a client certificate the broker refuses",
        .enabled(if: MosquittoHarness.toolsPresent && MosquittoHarness.opensslPath != nil, "\(MosquittoHarness.missingMessage), or openssl"),
        .timeLimit(.minutes(1)))
    func tls() throws {
        let harness = try MosquittoHarness(tls: true)
        defer { harness.shutDown() }
        let certificates = try #require(harness.certificates)
        let subscriber = try harness.subscribe(topic: "fairfuel/test-car/refuel", count: 1)
        var configuration = Self.configuration(harness, version: .v5)
        configuration.tls = MQTTTLSFiles(caFile: certificates.caFile, certFile: certificates.clientCertFile, keyFile: certificates.clientKeyFile)
        let recorder = MQTTRecorder()
        let client = try MQTTClient(configuration: configuration, handlers: recorder.handlers)
        client.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(client, seconds: 5) { client.state == .connected }, "\(client.lastError as Any) \(harness.logs)")
        let id = try client.publish(topic: "fairfuel/test-car/refuel", payload: Array("{\"id\":7}".utf8), retained: false)
        #expect(MQTTPump.run(client, seconds: 5) { recorder.acknowledged == [id] })
        #expect(harness.lines(of: subscriber) == ["fairfuel/test-car/refuel {\"id\":7}"])
        client.stop()

        var anonymous = configuration
        anonymous.clientID = "no-certificate"
        anonymous.tls = MQTTTLSFiles(caFile: certificates.caFile)
        let refusedRecorder = MQTTRecorder()
        let refused = try MQTTClient(configuration: anonymous, handlers: refusedRecorder.handlers)
        refused.start(nowMs: MQTTPump.nowMs())
        #expect(MQTTPump.run(refused, seconds: 5) { !refusedRecorder.errors.isEmpty })
        #expect(refusedRecorder.connects == 0)
        // The server's handshake refusal arrives as a TLS error or as the connection closing under the client.
        let first = refusedRecorder.errors.first
        switch first {
        case .tls?, .unreachable?, .connectionLost?: break
        default: Issue.record("unexpected \(first as Any)")
        }
    }

    @Test(
        "a failed handshake says what OpenSSL said: an unknown CA, an expired client certificate, a key that is not the certificate's",
        .enabled(if: MosquittoHarness.toolsPresent && MosquittoHarness.opensslPath != nil, "\(MosquittoHarness.missingMessage), or openssl"),
        .timeLimit(.minutes(1)))
    func tlsFailuresAreNamed() throws {
        let harness = try MosquittoHarness(tls: true)
        defer { harness.shutDown() }
        let certificates = try #require(harness.certificates)
        let otherCA = try MosquittoHarness.makeCA(named: "other-ca", in: harness.directory)
        let expired = try MosquittoHarness.makeClientCertificate(named: "expired", caFile: certificates.caFile, days: -1, in: harness.directory)
        let cases: [(MQTTTLSFiles, String)] = [
            (MQTTTLSFiles(caFile: otherCA, certFile: certificates.clientCertFile, keyFile: certificates.clientKeyFile), "certificate verify failed"),
            (MQTTTLSFiles(caFile: certificates.caFile, certFile: expired.certFile, keyFile: expired.keyFile), "sslv3 alert certificate expired"),
            (MQTTTLSFiles(caFile: certificates.caFile, certFile: certificates.clientCertFile, keyFile: expired.keyFile),
             "Unable to load client key file \"\(expired.keyFile)\"; key values mismatch"),
        ]
        for (files, reason) in cases {
            var configuration = Self.configuration(harness)
            configuration.tls = files
            let recorder = MQTTRecorder()
            let client = try MQTTClient(configuration: configuration, handlers: recorder.handlers)
            client.start(nowMs: MQTTPump.nowMs())
            #expect(MQTTPump.run(client, seconds: 5) { recorder.errors.filter { $0 == .tls(reason) }.count >= 2 }, "\(recorder.errors)")
            // A broker's reset can overtake its alert (TLS 1.3 checks the client certificate after the
            // client's handshake): that attempt says so, and once one attempt named the cause, the next repeat it.
            let named = try #require(recorder.errors.firstIndex(of: .tls(reason)))
            #expect(recorder.errors[..<named].allSatisfy { $0.description.contains("ended the session before CONNACK") }, "\(recorder.errors)")
            #expect(recorder.errors[named...].allSatisfy { $0 == .tls(reason) }, "every attempt the same: \(recorder.errors)")
            #expect(recorder.connects == 0)
            client.stop()
        }
    }

    @Test(
        "the last will (retained offline) arrives when the client's process is SIGKILLed",
        .enabled(if: MosquittoHarness.toolsPresent && FileManager.default.fileExists(atPath: "/proc/self/exe"), "\(MosquittoHarness.missingMessage)"),
        .timeLimit(.minutes(1)))
    func lastWill() throws {
        let harness = try MosquittoHarness()
        defer { harness.shutDown() }
        let progress = harness.directory + "/will-client.progress"
        FileManager.default.createFile(atPath: progress, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--testing-library", "swift-testing", "--filter", "MQTTLastWillClientProcess"]
        var environment = ProcessInfo.processInfo.environment
        environment["FAIRFUEL_MQTT_WILL_PORT"] = String(harness.port)
        environment["FAIRFUEL_MQTT_WILL_PROGRESS"] = progress
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline,
              !((try? String(contentsOfFile: progress, encoding: .utf8)) ?? "").contains("online") { usleep(10_000) }
        let said = (try? String(contentsOfFile: progress, encoding: .utf8)) ?? ""
        try #require(said.contains("online"), "the child client never came online: \(said) \(harness.logs)")
        let online = try harness.subscribe(topic: "fairfuel/will-car/status", count: 1)
        #expect(harness.lines(of: online) == ["fairfuel/will-car/status online"])

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // Retained: a subscriber that comes afterwards still reads it.
        let offlineDeadline = Date().addingTimeInterval(5)
        var lines: [String] = []
        repeat {
            lines = harness.lines(of: try harness.subscribe(topic: "fairfuel/will-car/status", count: 1, seconds: 1), seconds: 2)
        } while lines != ["fairfuel/will-car/status offline"] && Date() < offlineDeadline
        #expect(lines == ["fairfuel/will-car/status offline"], "\(harness.logs)")
    }
}

/// The client whose process `MQTTClientTests.lastWill` kills: runs only as that child process.
@Suite(.tags(.integration)) struct MQTTLastWillClientProcess {
    static let environment: (port: Int, progress: String)? = {
        let variables = ProcessInfo.processInfo.environment
        guard let port = variables["FAIRFUEL_MQTT_WILL_PORT"].flatMap(Int.init),
              let progress = variables["FAIRFUEL_MQTT_WILL_PROGRESS"] else { return nil }
        return (port, progress)
    }()

    @Test(.enabled(if: environment != nil, "runs only as the child process of MQTTClientTests.lastWill"))
    func publishUntilKilled() throws {
        let (port, progress) = try #require(Self.environment)
        let topic = "fairfuel/will-car/status"
        let recorder = MQTTRecorder()
        let client = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: port, clientID: "will-car", keepAliveSeconds: 5, backoffMinimumMs: 50,
                backoffMaximumMs: 200, lastWill: .offline(topic: topic)),
            handlers: recorder.handlers)
        client.start(nowMs: MQTTPump.nowMs())
        try #require(MQTTPump.run(client, seconds: 10) { client.state == .connected })
        let id = try client.publish(topic: topic, payload: Array("online".utf8), retained: true)
        try #require(MQTTPump.run(client, seconds: 10) { recorder.acknowledged == [id] })
        try "online\n".write(toFile: progress, atomically: false, encoding: .utf8)
        MQTTPump.run(client, seconds: 30) { false }
    }
}

/// Resident memory of a fresh process before and after an MQTT client connects over TLS and
/// publishes: runs only as the child of `MQTTClientMemoryTests`, whose numbers it writes to a file.
@Suite(.tags(.integration)) struct MQTTMemoryProbeProcess {
    /// `directory` holds the certificates, or is nil for plain TCP.
    static let environment: (port: Int, directory: String?, report: String)? = {
        let variables = ProcessInfo.processInfo.environment
        guard let port = variables["FAIRFUEL_MQTT_MEMORY_PORT"].flatMap(Int.init),
              let report = variables["FAIRFUEL_MQTT_MEMORY_REPORT"] else { return nil }
        return (port, variables["FAIRFUEL_MQTT_MEMORY_CERTS"], report)
    }()

    /// The libraries the client brings in with dlopen (libmosquitto, and OpenSSL behind it).
    static let libraryPrefixes = ["libmosquitto.so", "libssl.so", "libcrypto.so"]

    /// Anonymous and file-backed resident bytes of the process (`RssAnon`, `RssFile` of
    /// /proc/self/status), and the resident and proportional bytes of the libraries' mappings
    /// (`Rss`, `Pss` summed over their entries in /proc/self/smaps): what the uplink's code and
    /// data really occupy, read without changing it.
    static func resident() -> [Int] {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func kib(_ key: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
            return (line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
        }
        var librariesRss = 0, librariesPss = 0
        var inLibrary = false
        // Read to its end: /proc reports a size of 0, and smaps runs to hundreds of KiB.
        let smaps = FileHandle(forReadingAtPath: "/proc/self/smaps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        for line in smaps.split(separator: "\n") {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard let key = fields.first else { continue }
            if key.hasSuffix(":") {
                guard inLibrary, fields.count >= 2, let value = Int(fields[1]) else { continue }
                if key == "Rss:" { librariesRss += value * 1024 }
                if key == "Pss:" { librariesPss += value * 1024 }
            } else {
                // A mapping's header: `start-end perms offset dev inode [path]`.
                let name = fields.count >= 6 ? fields[5].split(separator: "/").last ?? "" : ""
                inLibrary = libraryPrefixes.contains { name.hasPrefix($0) }
            }
        }
        return [kib("RssAnon:"), kib("RssFile:"), librariesRss, librariesPss]
    }

    @Test(.enabled(if: environment != nil, "runs only as the child process of MQTTClientMemoryTests"))
    func measure() throws {
        let (port, directory, report) = try #require(Self.environment)
        let before = Self.resident()
        let recorder = MQTTRecorder()
        let client = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: port, clientID: "memory-car", keepAliveSeconds: 30, backoffMinimumMs: 50, backoffMaximumMs: 400,
                tls: directory.map { MQTTTLSFiles(caFile: $0 + "/ca.crt", certFile: $0 + "/client.crt", keyFile: $0 + "/client.key") },
                lastWill: .offline(topic: "fairfuel/memory-car/status")),
            handlers: recorder.handlers)
        let loaded = Self.resident()
        client.start(nowMs: MQTTPump.nowMs())
        try #require(MQTTPump.run(client, seconds: 10) { client.state == .connected })
        let connected = Self.resident()
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 600)
        var halfway: [Int] = []
        for round in 0..<20 {
            // Halfway, the client's and libmosquitto's buffers have reached their working size.
            if round == 10 { halfway = Self.resident() }
            for _ in 0..<10 { _ = try client.publish(topic: "fairfuel/memory-car/trip", payload: payload, retained: false) }
            let target = recorder.acknowledged.count + 10
            try #require(MQTTPump.run(client, seconds: 10) { recorder.acknowledged.count >= target })
            recorder.events.removeAll(keepingCapacity: true)
        }
        let published = Self.resident()
        client.stop()
        let numbers = [before, loaded, connected, halfway, published].flatMap { $0 }
        try (numbers.map(String.init).joined(separator: " ") + "\n").write(toFile: report, atomically: true, encoding: .utf8)
    }
}

@Suite(.tags(.integration)) struct MQTTClientMemoryTests {
    /// Resident bytes at one moment of the probe: the process's, and the uplink libraries' mappings'.
    struct Resident: CustomStringConvertible {
        var anonymous: Int
        var file: Int
        /// `Rss` of libmosquitto's, libssl's and libcrypto's mappings.
        var librariesRss: Int
        /// `Pss` of the same: their pages shared with other processes counted in part.
        var librariesPss: Int
        var total: Int { anonymous + file }
        static func - (lhs: Self, rhs: Self) -> Self {
            Resident(
                anonymous: lhs.anonymous - rhs.anonymous, file: lhs.file - rhs.file,
                librariesRss: lhs.librariesRss - rhs.librariesRss, librariesPss: lhs.librariesPss - rhs.librariesPss)
        }
        var description: String {
            "+\(total / 1024) KiB (anonymous \(anonymous / 1024), file \(file / 1024); "
                + "the libraries' mappings Rss \(librariesRss / 1024), Pss \(librariesPss / 1024))"
        }
    }

    /// Runs the probe against a fresh broker: resident memory before, with libmosquitto loaded
    /// and a client made, connected, and after 200 messages.
    static func probe(tls: Bool) throws -> [Resident] {
        let harness = try MosquittoHarness(tls: tls)
        defer { harness.shutDown() }
        let report = harness.directory + "/memory.report"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--testing-library", "swift-testing", "--filter", "MQTTMemoryProbeProcess"]
        var environment = ProcessInfo.processInfo.environment
        environment["FAIRFUEL_MQTT_MEMORY_PORT"] = String(harness.port)
        if tls { environment["FAIRFUEL_MQTT_MEMORY_CERTS"] = harness.directory }
        environment["FAIRFUEL_MQTT_MEMORY_REPORT"] = report
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 20 else { throw HarnessError("the memory probe wrote \(text.debugDescription)") }
        return stride(from: 0, to: 20, by: 4).map {
            Resident(anonymous: numbers[$0], file: numbers[$0 + 1], librariesRss: numbers[$0 + 2], librariesPss: numbers[$0 + 3])
        }
    }

    /// The issue's target is 1 MB for the whole uplink in the daemon; that figure needs the wiring
    /// (issue #16) and a release build. Here, in a debug test process: loading libmosquitto (and
    /// libssl, libcrypto behind it), then the client's own cost, which is what these bounds guard.
    /// Nothing is dropped to lower the figures: the libraries' share is read from /proc/self/smaps.
    @Test(
        "resident memory of the uplink in a fresh process: the plain client under 1 MiB beyond the library, nothing growing with messages",
        .enabled(if: MosquittoHarness.toolsPresent && MosquittoHarness.opensslPath != nil
            && FileManager.default.fileExists(atPath: "/proc/self/exe"), "\(MosquittoHarness.missingMessage), or openssl"),
        .timeLimit(.minutes(1)))
    func residentMemory() throws {
        for tls in [false, true] {
            let r = try Self.probe(tls: tls)
            let library = r[1] - r[0], connect = r[2] - r[1], messages = r[4] - r[2], total = r[4] - r[0]
            // The second hundred messages against the first: the working buffers are there by then,
            // so any growth is what the messages themselves leave behind.
            let secondHundred = r[4] - r[3]
            print("""
                MQTT uplink resident memory (\(tls ? "TLS" : "plain")): libmosquitto loaded and a client made \(library); \
                connected \(connect); 200 QoS 1 messages \(messages); in all \(total); \
                the libraries' mappings after the messages: Rss \(r[4].librariesRss / 1024) KiB, Pss \(r[4].librariesPss / 1024) KiB
                """)
            #expect(r[0].librariesRss == 0, "libmosquitto, libssl and libcrypto are not mapped before the first client (dlopen)")
            #expect(r[1].librariesRss > 0, "the first client maps them")
            #expect(connect.total < (tls ? 5 : 1) << 20, "\(tls ? "TLS" : "plain"): \(connect)")
            #expect(messages.anonymous < 1 << 20, "200 messages: \(messages)")
            #expect(secondHundred.anonymous < 64 << 10, "what the messages leave behind must not grow with them: the second hundred \(secondHundred)")
        }
    }
}
