import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelReports
import FairFuelService
import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// The service loop against a fake MCU on a real pseudo-terminal, in-process.
@Suite(.serialized) struct ServiceRuntimeTests {
    final class Harness: @unchecked Sendable {
        let directory: String
        let storePath: String
        let portLink: String
        let controlPath: String
        var runtime: ServiceRuntime!
        var thread: Thread?
        let stop = NSLock()
        var stopFlag = false
        var logLines: [String] = []
        let logLock = NSLock()

        /// A store with `provision`'s drivers (by default Alice, with a tag and an iBeacon).
        init(provision: ((TripStore) throws -> Void)? = nil) throws {
            directory = NSTemporaryDirectory() + "fairfuel-runtime-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            storePath = directory + "/fairfuel.db"
            portLink = directory + "/mcu"
            controlPath = directory + "/control.sock"
            let store = try TripStore(path: storePath)
            if let provision {
                try provision(store)
                return
            }
            try store.addDriver(name: "Alice", tags: [.uid(try TagUID(parsing: "04A22B7A"))], beacons: [try BeaconIdentity(spec: "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:1")])
        }

        func start(board custom: BoardProfile? = nil) throws {
            var board = custom ?? BoardProfile.piZero2W
            board.link.reconnectBackoffMinMs = 50
            board.link.reconnectBackoffMaxMs = 200
            let logger = Logger(minimumLevel: .debug, style: .plain, sink: { [weak self] line in
                self?.logLock.lock()
                self?.logLines.append(String(decoding: line, as: UTF8.self))
                self?.logLock.unlock()
            })
            runtime = try ServiceRuntime(options: .init(
                board: board, storePath: storePath, port: portLink, controlSocketPath: controlPath, logger: logger))
            let thread = Thread { [self] in
                self.runtime.runLoop(shouldStop: { self.stop.lock(); defer { self.stop.unlock() }; return self.stopFlag })
            }
            self.thread = thread
            thread.start()
        }

        func stopAndWait() {
            stop.lock()
            stopFlag = true
            stop.unlock()
            let deadline = Date().addingTimeInterval(5)
            while thread?.isFinished == false && Date() < deadline { usleep(10_000) }
        }

        var log: [String] {
            logLock.lock()
            defer { logLock.unlock() }
            return logLines
        }

    }

    /// The MCU's side of the pseudo-terminal, owned by the test.
    struct FakeMCU {
        var pty: PseudoTerminal
        var encoder = FrameEncoder()
        var decoder = FrameDecoder(sender: .host)
        var fromHost: [Frame] = []

        /// A new pseudo-terminal behind the symbolic link `link` (plugging the MCU in).
        init(link: String) throws {
            pty = try PseudoTerminal()
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pty.devicePath)
        }

        mutating func send(_ message: LinkMessage) throws { try pty.write(try encoder.encode(message)) }

        /// Reads host frames for up to `seconds`, until `until` holds.
        mutating func collect(seconds: Double, until: ([Frame]) -> Bool) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline && !until(fromHost) {
                let bytes = try pty.read(timeoutMs: 50)
                var received: [Frame] = []
                decoder.decode(bytes) { if case let .frame(frame) = $0 { received.append(frame) } }
                fromHost += received
            }
        }

        /// Answers every not-yet-answered host command with ACK ok.
        mutating func acknowledgeAll(_ answered: inout Set<UInt16>) throws {
            for frame in fromHost where !answered.contains(frame.seq) {
                answered.insert(frame.seq)
                try send(.ack(Ack(ackedSeq: frame.seq, status: .ok)))
            }
        }
    }

    static func hello() -> LinkMessage {
        .hello(Hello(firmwareMajor: 1, firmwareMinor: 4, firmwarePatch: 2, boardID: 0x0101,
                     capabilities: [.nfcReader, .bleScanner, .gnss, .nfcWrite, .ignitionSense], uptimeMs: 1_000, name: "test MCU"))
    }

    @Test func handshakeTapFeedbackStatusAndCleanStop() throws {
        let harness = try Harness()
        var mcu = try FakeMCU(link: harness.portLink)
        try harness.start()
        defer { harness.stopAndWait() }
        // The service opens the port (termios: a pty), asks for HELLO and pushes the BLE filter.
        try mcu.collect(seconds: 5) { frames in frames.contains { if case .bleFilter = $0.message { true } else { false } } }
        #expect(mcu.fromHost.first.map { if case .helloRequest = $0.message { true } else { false } } == true)
        guard case let .bleFilter(filter)? = mcu.fromHost.first(where: { if case .bleFilter = $0.message { true } else { false } })?.message else {
            Issue.record("no BLE_FILTER")
            return
        }
        #expect(filter.entries == [.iBeaconUUID(UUID128("e2c56db5-dffb-48d2-b060-d0f5a71096e0")!.bytes)])
        var answered = Set<UInt16>()
        try mcu.acknowledgeAll(&answered)
        try mcu.send(Self.hello())
        try mcu.send(.heartbeat(Heartbeat(uptimeMs: 2_000, mcuDropped: 0, supplyMillivolts: 13_800, flags: 1)))
        // A tap by Alice: the service answers with FEEDBACK session started.
        try mcu.send(.nfcTag(NFCTagReport(mcuTimeMs: 2_500, technology: .iso14443A, atqa: 0x0044, sak: 0, uid: [0x04, 0xA2, 0x2B, 0x7A][...], ndef: [][...])))
        try mcu.collect(seconds: 5) { frames in frames.contains { $0.message == .feedback(.sessionStarted) } }
        #expect(mcu.fromHost.contains { $0.message == .feedback(.sessionStarted) })
        // An unknown tag: FEEDBACK rejected.
        try mcu.send(.nfcTag(NFCTagReport(mcuTimeMs: 3_000, technology: .iso14443A, atqa: 0x0044, sak: 0, uid: [0x04, 0x11, 0x22, 0x33][...], ndef: [][...])))
        try mcu.collect(seconds: 5) { frames in frames.contains { $0.message == .feedback(.rejected) } }
        #expect(mcu.fromHost.contains { $0.message == .feedback(.rejected) })

        let status = try #require(ControlSocketClient.ask(path: harness.controlPath, request: "status"))
        let json = try JSONSerialization.jsonObject(with: Data(status.utf8)) as! [String: Any]
        #expect(json["link"] as? String == "up")
        #expect(json["opener"] as? String == "termios")
        #expect(json["firmware"] as? String == "1.4.2")
        #expect(json["session_state"] as? String == "ACTIVE")
        #expect(json["driver"] as? String == "Alice")
        #expect(((json["frames"] as? [String: Any])?["frames"] as? Int ?? 0) >= 4)
        // The store's size on disk counts its WAL and index, where the session start sits until a checkpoint.
        func bytes(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        let wal = bytes(harness.storePath + "-wal")
        #expect(wal > 0, "nothing in the WAL: the figure below says nothing")
        #expect(json["store_bytes"] as? Int == bytes(harness.storePath) + wal + bytes(harness.storePath + "-shm"), "\(status)")
        #expect(json["store_database_bytes"] as? Int == bytes(harness.storePath))
        #expect(json["store_wal_bytes"] as? Int == wal)
        #expect(json["store_reserve_bytes"] as? Int == bytes(harness.storePath + "-reserve"))
        // `fairfuel status` (text) shows every field of `status --json`, with its value.
        let text = try #require(StatusText.text(status))
        for (key, value) in json {
            let line = text.split(separator: "\n").first { $0.hasPrefix(key + " ") }
            #expect(line != nil, "status text lacks \(key)")
            if let scalar = value as? String { #expect(line?.hasSuffix(" " + scalar) == true, "\(key): \(line ?? "")") }
        }
        #expect(text.contains("driver                Alice"))
        #expect(StatusText.text("{\"link\":") == nil)
        #expect(ControlSocketClient.ask(path: harness.controlPath, request: "bogus")?.hasPrefix("error: unknown request") == true)

        let ended = try #require(ControlSocketClient.ask(path: harness.controlPath, request: "session end"))
        #expect(ended == "ok: session ended\n")
        let clock = ContinuousClock()
        let stopStart = clock.now
        harness.stopAndWait()
        #expect(clock.now - stopStart < .seconds(2))
        #expect(harness.log.contains { $0.contains("service stopped") })
        let sessions = try TripStore(path: harness.storePath, readOnly: true).sessions()
        #expect(sessions.count == 1)
        #expect(sessions.first?.endReason == .manual)
        #expect(try TripStore(path: harness.storePath, readOnly: true).events(kind: "unknown_tag").map(\.detail) == ["04:11:22:33"])
    }

    @Test func unansweredCommandsAreResentWithTheSameSeq() throws {
        let harness = try Harness()
        var mcu = try FakeMCU(link: harness.portLink)
        try harness.start()
        defer { harness.stopAndWait() }
        // Never ACK: the HELLO_REQ (seq 0) must come 4 times in all (first send + 3 resends), 500 ms apart.
        try mcu.collect(seconds: 4) { frames in frames.filter { $0.seq == 0 }.count >= 4 }
        let helloRequests = mcu.fromHost.filter { if case .helloRequest = $0.message { true } else { false } }
        #expect(helloRequests.count == 4)
        #expect(Set(helloRequests.map(\.seq)) == [0])
        try mcu.collect(seconds: 1.5) { _ in false }
        #expect(mcu.fromHost.filter { if case .helloRequest = $0.message { true } else { false } }.count == 4)
        #expect(harness.log.contains { $0.contains("did not acknowledge command 0x81 seq 0 after 3 resends") })
    }

    @Test func unplugAndReplugReconnectsAndKeepsTheSession() throws {
        let harness = try Harness()
        var mcu = try FakeMCU(link: harness.portLink)
        try harness.start()
        defer { harness.stopAndWait() }
        try mcu.collect(seconds: 5) { frames in frames.count >= 2 }
        var answered = Set<UInt16>()
        try mcu.acknowledgeAll(&answered)
        try mcu.send(Self.hello())
        try mcu.send(.nfcTag(NFCTagReport(mcuTimeMs: 2_500, technology: .iso14443A, atqa: 0x0044, sak: 0, uid: [0x04, 0xA2, 0x2B, 0x7A][...], ndef: [][...])))
        try mcu.collect(seconds: 5) { frames in frames.contains { $0.message == .feedback(.sessionStarted) } }
        // Unplug: the pty goes away; replug: a new one behind the same link.
        mcu = try FakeMCU(link: harness.portLink)
        try mcu.collect(seconds: 5) { frames in frames.contains { if case .helloRequest = $0.message { true } else { false } } }
        #expect(mcu.fromHost.contains { if case .helloRequest = $0.message { true } else { false } })
        #expect(harness.log.contains { $0.contains("MCU link lost") })
        let status = try #require(ControlSocketClient.ask(path: harness.controlPath, request: "status"))
        #expect(status.contains("\"session_state\":\"ACTIVE\""))
        #expect(status.contains("\"reconnects\":1"))
    }
}

extension ServiceRuntimeTests {
    /// Link time: the domain runs on the MCU's stamps, so a virtual MCU at 300x real time gets
    /// its session started by a tap and ended by the domain's own rules, in seconds.
    @Test func spedUpVirtualMCUSessionStartsAndEndsByTheDomainRules() throws {
        let scenario = try SimScenarioParser.load(path: PackagePaths.root + "/scenarios/short-drive.scenario")
        let plan = try SimPlanner.plan(scenario)
        let anna = try #require(scenario.driver(named: "Anna"))
        let harness = try Harness { store in
            var tags: [TagIdentity] = []
            if let tag = plan.tag(ofDriver: "Anna") { tags.append(.uid(try TagUID(bytes: tag.uid[...]))) }
            if let uri = anna.driverURI { tags.append(.driver(uri.driverID)) }
            try store.addDriver(name: "Anna", tags: tags, beacons: anna.beacon.map { [$0] } ?? [])
        }
        var options = VirtualMCUOptions(speed: 300, idleSpeed: 3_000, linkPath: harness.portLink)
        options.waitForHost = true
        options.lossless = true  // a loaded CI machine must not turn this into an overload test
        let mcu = try VirtualMCU(plan: plan, options: options)
        _ = try mcu.start()
        try harness.start()
        defer { harness.stopAndWait() }
        let clock = ContinuousClock()
        let begun = clock.now
        // Five parked minutes after the scenario's end: the session must end by itself within them.
        let report = try mcu.runInBackground(until: .simulatedMs(plan.endMs + 300_000)).join().get()
        let elapsed = clock.now - begun
        #expect(elapsed < .seconds(30), "the sped-up drive took \(elapsed)")
        let deadline = Date().addingTimeInterval(5)
        var sessions: [StoredSession] = []
        while Date() < deadline {
            sessions = try TripStore(path: harness.storePath, readOnly: true).sessions()
            if sessions.first?.endReason != nil { break }
            usleep(50_000)
        }
        #expect(sessions.count == 1)
        let session = try #require(sessions.first)
        #expect(session.driverName == "Anna")
        // Ended by the domain (driver gone, or the car standing), not by a request or a power cut.
        #expect(session.endReason == .departed)
        // Link time, not host time: the trip lasts its simulated minutes, not the real seconds.
        #expect(session.durationMs > 5 * 60_000, "duration \(session.durationMs) ms")
        #expect(session.distanceMeters > 2_500 && session.distanceMeters < 4_500, "distance \(session.distanceMeters) m")
        #expect(report.feedback.contains { $0.pattern == .sessionStarted })
        #expect(report.feedback.contains { $0.pattern == .sessionEnded })
        let status = try #require(ControlSocketClient.ask(path: harness.controlPath, request: "status"))
        let json = try JSONSerialization.jsonObject(with: Data(status.utf8)) as! [String: Any]
        #expect(json["session_state"] as? String != "ACTIVE")
        #expect((json["link_time_ms"] as? Int ?? 0) > Int(plan.endMs))
        #expect(json["mcu_reboots"] as? Int == 0)
    }
}
