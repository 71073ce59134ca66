import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelService
import FairFuelSimulation
import FairFuelSimulationRunner
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// Learn mode, tag writing and the bootloader: the service loop against the virtual MCU on a
/// pseudo-terminal, in real time (the scenario's seconds are the test's).
@Suite(.serialized) struct ProvisioningRuntimeTests {
    static let scenario = """
        title provisioning runtime
        seed 3
        start 2026-03-02 09:00
        # No slow shadowing: two fobs at the same distance read the same but for fast fading.
        radio shadowing 0
        place workshop 48.12000 11.56000
        vehicle at workshop
        driver Anna tag ntag213 04:A2:2B:7A:3C:5D:80
        driver Ben beacon ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:200:2
        driver Cara beacon eddystone:edd1ebeac04e5defa017:0000000000c4
        day 1 mon
        09:00:04 tap Anna
        09:00:08 present blank ntag213 04:11:22:33:44:55:66
        09:00:12 near Ben for 6 s range 0.2 m
        09:00:26 near Ben for 8 s range 0.2 m
        09:00:26 near Cara for 8 s range 0.2 m
        09:00:40 end
        """

    final class Service: @unchecked Sendable {
        let directory: String
        let storePath: String
        let controlPath: String
        var runtime: ServiceRuntime!
        var thread: Thread?
        let lock = NSLock()
        var stopFlag = false

        init() throws {
            directory = NSTemporaryDirectory() + "fairfuel-provisioning-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            storePath = directory + "/fairfuel.db"
            controlPath = directory + "/control.sock"
            let store = try TripStore(path: storePath)
            for name in ["Anna", "Ben", "Cara"] { try store.addDriver(name: name, tags: [], beacons: []) }
        }

        func start(port: String) throws {
            var board = BoardProfile.piZero2W
            board.link.reconnectBackoffMinMs = 50
            board.link.reconnectBackoffMaxMs = 200
            let logger = Logger(minimumLevel: .warning, style: .plain, sink: { _ in })
            runtime = try ServiceRuntime(options: .init(board: board, storePath: storePath, port: port, controlSocketPath: controlPath, logger: logger))
            let thread = Thread { [self] in
                runtime.runLoop(shouldStop: { self.lock.lock(); defer { self.lock.unlock() }; return self.stopFlag })
            }
            self.thread = thread
            thread.start()
        }

        func stop() {
            lock.lock()
            stopFlag = true
            lock.unlock()
            let deadline = Date().addingTimeInterval(5)
            while thread?.isFinished == false && Date() < deadline { usleep(10_000) }
        }

        func ask(_ request: String, seconds: Int32 = 30) -> String {
            ControlSocketClient.ask(path: controlPath, request: request, timeoutMs: seconds * 1000) ?? "no service"
        }
    }

    static func waitUntil(_ mcu: VirtualMCU, simulatedMs: Int64) {
        let deadline = Date().addingTimeInterval(60)
        while mcu.simulatedMs < simulatedMs && Date() < deadline { usleep(20_000) }
    }

    @Test func learnTagWriteTagLearnBeaconAndTheBootloader() throws {
        let scenario = try SimScenarioParser.parse(Self.scenario, sourceName: "provisioning-runtime.scenario")
        let service = try Service()
        let mcu = try VirtualMCU(scenario: scenario, options: VirtualMCUOptions(speed: 1, linkPath: service.directory + "/mcu"))
        let port = try mcu.start()
        let run = mcu.runInBackground()
        try service.start(port: port)
        defer {
            service.stop()
            mcu.stop()
            _ = try? run.join().get()
        }
        Self.waitUntil(mcu, simulatedMs: 1_000)
        #expect(service.ask("learn-tag 10 Nobody").hasPrefix("error: no driver named 'Nobody'"))

        // Anna taps at 4 s: the tap binds her tag instead of starting a session.
        let learned = service.ask("learn-tag 10 anna")
        #expect(learned == "ok: bound tag uid:04:A2:2B:7A:3C:5D:80 to Anna\n")
        // A blank tag at 8 s takes Ben's driver URI; the read-back is checked and bound.
        let written = service.ask("write-tag 10 Ben")
        #expect(written.hasPrefix("ok: wrote fairfuel://driver/"), "\(written)")
        #expect(written.hasSuffix("to tag 04:11:22:33:44:55:66, read it back, bound to Ben\n"))
        // Ben holds his fob against the dongle from 12 s.
        let beacon = service.ask("learn-beacon 15 3 Ben")
        #expect(beacon.hasPrefix("ok: bound beacon ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:200:2 ("), "\(beacon)")
        // From 26 s Ben and Cara stand side by side: learning Cara's beacon refuses.
        Self.waitUntil(mcu, simulatedMs: 21_000)
        let close = service.ask("learn-beacon 15 4 Cara")
        #expect(close.hasPrefix("error: two beacons are equally close"), "\(close)")

        let store = try TripStore(path: service.storePath, readOnly: true)
        let drivers = try store.drivers()
        #expect(drivers.map(\.tags.count) == [1, 1, 0])
        #expect(drivers[0].tags == [.uid(try TagUID(parsing: "04A22B7A3C5D80"))])
        #expect(drivers[1].tags == drivers[1].uuid.map { [.driver($0)] })
        #expect(drivers[1].beacons.map(\.spec) == ["ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:200:2"])
        #expect(drivers[2].beacons.isEmpty)
        #expect(try store.sessions().isEmpty, "a tap in learn mode is not a session")
        #expect(mcu.events.contains { if case .tagWritten = $0.kind { true } else { false } })
        // The last FEEDBACK crosses the pseudo-terminal after the answer: give it a moment.
        let deadline = Date().addingTimeInterval(3)
        while !mcu.feedback.contains(where: { $0.pattern == .rejected }) && Date() < deadline { usleep(20_000) }
        let patterns = mcu.feedback.map(\.pattern)
        #expect(patterns.filter { $0 == .provisioning }.count == 4)
        #expect(patterns.filter { $0 == .accepted }.count == 3)
        #expect(patterns.contains(.rejected))

        let info = service.ask("mcu info")
        #expect(info.contains("\"firmware\":\"\(scenario.mcu.firmware.major).\(scenario.mcu.firmware.minor).\(scenario.mcu.firmware.patch)\""), "\(info)")
        #expect(info.contains("\"nfc_write\""))
        let boot = service.ask("mcu bootloader")
        #expect(boot.hasPrefix("ok: the MCU acknowledged BOOTLOADER"), "\(boot)")
        usleep(300_000)
        #expect(mcu.events.contains { if case .bootloader = $0.kind { true } else { false } })
    }

    @Test func learnTagTimesOutAndAHungUpClientCancels() throws {
        let scenario = try SimScenarioParser.parse("""
            title quiet
            start 2026-03-02 09:00
            place workshop 48.12000 11.56000
            vehicle at workshop
            day 1 mon
            09:00:30 end
            """, sourceName: "quiet.scenario")
        let service = try Service()
        let mcu = try VirtualMCU(scenario: scenario, options: VirtualMCUOptions(speed: 1, linkPath: service.directory + "/mcu"))
        let port = try mcu.start()
        let run = mcu.runInBackground()
        try service.start(port: port)
        defer {
            service.stop()
            mcu.stop()
            _ = try? run.join().get()
        }
        Self.waitUntil(mcu, simulatedMs: 1_000)
        let started = Date()
        #expect(service.ask("learn-tag 2 Anna") == "error: no tag was tapped within the timeout\n")
        #expect(Date().timeIntervalSince(started) < 4)
        // Learning again works once the first ended; one at a time while it runs.
        let background = Thread { _ = service.ask("learn-tag 3 Ben", seconds: 1) }  // gives up after 1 s
        background.start()
        usleep(300_000)
        #expect(service.ask("learn-tag 5 Cara").hasPrefix("error: busy learning a tag for Ben"))
        usleep(1_500_000)
        // Ben's client hung up: the service cancelled his learn mode, so Cara's can start (and time out).
        #expect(service.ask("learn-tag 1 Cara") == "error: no tag was tapped within the timeout\n")
        #expect(mcu.feedback.map(\.pattern).filter { $0 == .provisioning }.count == 3)
    }
}
