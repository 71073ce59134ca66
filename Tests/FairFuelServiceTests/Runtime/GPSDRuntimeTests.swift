import FairFuelConfiguration
import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelService
import FairFuelStore
import Foundation
import Testing
import TestSupport

/// `gnss.source = gpsd`: the service polls a real gpsd beside the MCU link and drives the
/// domain with its fixes (the harness in GPSD/ is FairFuelEdgesTests' own, linked in).
@Suite(.serialized, .tags(.integration)) struct GPSDRuntimeTests {
    static func status(_ path: String) throws -> [String: Any] {
        let text = try #require(ControlSocketClient.ask(path: path, request: "status"))
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    @Test(
        "fixes from gpsd reach the domain with link time; MCU NMEA is ignored and counted",
        .enabled(if: GPSDHarness.toolsPresent, "gpsd or socat is not installed (scripts/install-deps.sh installs both)"),
        .timeLimit(.minutes(1)))
    func gpsdFixesDriveTheTrip() throws {
        let gps = try GPSDHarness()
        defer { gps.shutDown() }
        let harness = try ServiceRuntimeTests.Harness()
        var mcu = try ServiceRuntimeTests.FakeMCU(link: harness.portLink)
        var board = BoardProfile.piZero2W
        board.gnss.source = .gpsd
        board.gnss.gpsdHost = "127.0.0.1"
        board.gnss.gpsdPort = gps.port
        try harness.start(board: board)
        defer { harness.stopAndWait() }

        try mcu.collect(seconds: 5) { frames in frames.count >= 2 }
        var answered = Set<UInt16>()
        try mcu.acknowledgeAll(&answered)
        try mcu.send(ServiceRuntimeTests.hello())
        try mcu.send(.nfcTag(NFCTagReport(mcuTimeMs: 1_500, technology: .iso14443A, atqa: 0x0044, sak: 0, uid: [0x04, 0xA2, 0x2B, 0x7A][...], ndef: [][...])))
        try mcu.collect(seconds: 5) { frames in frames.contains { $0.message == .feedback(.sessionStarted) } }
        #expect(mcu.fromHost.contains { $0.message == .feedback(.sessionStarted) })
        // The MCU's own receiver is not the GNSS source in this mode.
        let sentence = Array("$GPRMC,120000.00,A,4807.0380,N,01131.0000,E,022.4,084.4,230394,,,A*63".utf8)
        try mcu.send(.nmea(NMEAReport(mcuTimeMs: 1_600, sentence: sentence[...])))

        // gpsd epochs at 5 Hz, each about 2 m further on: the session's distance must grow.
        var json: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(20)
        var uptime: UInt32 = 2_000
        while Date() < deadline {
            gps.writeEpoch()
            uptime += 200
            try mcu.send(.heartbeat(Heartbeat(uptimeMs: uptime, mcuDropped: 0, supplyMillivolts: 13_800, flags: 1)))
            usleep(200_000)
            json = try Self.status(harness.controlPath)
            if (json["gpsd_fixes"] as? Int ?? 0) >= 8, (json["session_km"] as? Double ?? 0) > 0.005 { break }
        }
        #expect(json["gnss_source"] as? String == "gpsd")
        #expect(json["gpsd"] as? String == "connected", "\(json); \(gps.logs)")
        #expect((json["gpsd_fixes"] as? Int ?? 0) >= 8, "\(json)")
        #expect(json["gnss_fix"] as? Bool == true)
        #expect(json["satellites"] as? Int == GPSDHarness.satellites.count)
        #expect(json["mcu_nmea_ignored"] as? Int == 1)
        #expect(json["session_state"] as? String == "ACTIVE")
        #expect((json["session_km"] as? Double ?? 0) > 0.005, "\(json)")
        #expect(harness.log.contains { $0.contains("gpsd connected") })
    }

    @Test(
        "gpsd absent at start: the service runs on, and connects once gpsd is there",
        .enabled(if: GPSDHarness.toolsPresent, "gpsd or socat is not installed (scripts/install-deps.sh installs both)"),
        .timeLimit(.minutes(1)))
    func reconnectsWithBackoff() throws {
        let gps = try GPSDHarness(startingGPSD: false)
        defer { gps.shutDown() }
        // The premise: nothing listens on gpsd's port when the service starts.
        try #require(Self.waitUntilNothingListens(port: gps.port), "gpsd still listens on \(gps.port) after stopping")
        let harness = try ServiceRuntimeTests.Harness()
        var board = BoardProfile.piZero2W
        board.gnss.source = .gpsd
        board.gnss.gpsdPort = gps.port
        try harness.start(board: board)
        defer { harness.stopAndWait() }
        usleep(600_000)
        let before = try Self.status(harness.controlPath)
        #expect(before["gpsd_fixes"] as? Int == 0, "\(before)")
        #expect(before["gpsd"] as? String == "down", "\(before)")
        #expect(harness.log.contains { $0.contains("gpsd unreachable") || $0.contains("gpsd lost") }, "\(harness.log)")
        try gps.startGPSD()
        let deadline = Date().addingTimeInterval(10)
        var json: [String: Any] = [:]
        while Date() < deadline {
            gps.writeEpoch()
            usleep(200_000)
            json = try Self.status(harness.controlPath)
            if (json["gpsd_fixes"] as? Int ?? 0) >= 2 { break }
        }
        #expect(json["gpsd"] as? String == "connected", "\(json); \(gps.logs)")
        #expect((json["gpsd_fixes"] as? Int ?? 0) >= 2)
    }

    /// Whether connecting to 127.0.0.1:`port` is refused within 10 s.
    static func waitUntilNothingListens(port: Int) -> Bool {
        // gpsd under a loaded machine (parallel builds and tests) can take seconds to close its socket.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return false }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(descriptor)
            if result != 0 { return true }
            usleep(50_000)
        }
        return false
    }
}
