import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelService
import FairFuelStore
import Foundation
import Testing

/// A capture's `t_ms` is the replay's domain time: a time no capture can have is refused with its
/// line, never handed to the domain.
@Suite struct ReplayCaptureTimeTests {
    /// Three seconds of driving as the MCU sends them, from `startMs` (Anna's tag read first when `tap`).
    static func capture(startMs: UInt64, tap: Bool = false) throws -> String {
        var text = CaptureFormat.header + "\n"
        var seq: UInt16 = 0
        func line(_ offsetMs: UInt64, _ message: LinkMessage) throws {
            text += CaptureFormat.line(timeMs: startMs + offsetMs, direction: .rx, bytes: try FrameEncoder.encode(message, seq: seq)) + "\n"
            seq &+= 1
        }
        try line(0, .hello(Hello(firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, boardID: 1, capabilities: [.gnss, .ignitionSense], uptimeMs: 5, name: "t")))
        try line(1, .power(PowerReport(mcuTimeMs: 6, ignitionOn: true, supplyMillivolts: 12_600)))
        if tap {
            try line(2, .nfcTag(NFCTagReport(mcuTimeMs: 7, technology: .iso14443A, atqa: 0x0004, sak: 0x08, uid: [0x04, 0xA1, 0xB2, 0xC3], ndef: [])))
        }
        for second in 0..<3 {
            let time = "08000\(second).00"
            let rmc = "GPRMC,\(time),A,4807.038,N,01131.000,E,22.4,084.4,230326,003.1,W"
            let gga = "GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
            for body in [rmc, gga] {
                let sum = body.utf8.reduce(UInt8(0), ^)
                let sentence = "$\(body)*\(sum < 16 ? "0" : "")\(String(sum, radix: 16, uppercase: true))"
                try line(UInt64(second) * 1_000 + 10, .nmea(NMEAReport(mcuTimeMs: 10 + UInt32(second) * 1_000, sentence: sentence)))
            }
            try line(UInt64(second) * 1_000 + 20, .heartbeat(Heartbeat(uptimeMs: 20 + UInt32(second) * 1_000, mcuDropped: 0, supplyMillivolts: 12_600, flags: 1)))
        }
        return text
    }

    func replay(_ text: String) throws -> ReplayReport {
        let directory = NSTemporaryDirectory() + "fairfuel-replay-time-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/huge.ffcap"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let store = try TripStore(path: directory + "/fairfuel.db")
        _ = try store.addDriver(name: "Anna", tags: [.uid(try TagUID(bytes: [0x04, 0xA1, 0xB2, 0xC3]))], beacons: [])
        return try Replay(capturePath: path, store: store).run()
    }

    @Test func anOrdinaryStartReplays() throws {
        let report = try replay(try Self.capture(startMs: 1_000))
        #expect(report.link.frames == 11 && report.lastTimeMs == 3_020)
    }

    /// 2^63 ms (a 19-digit time the line syntax allows) trapped converting to Int64 domain time.
    @Test func aTimeBeyondInt64IsRefusedWithItsLine() throws {
        let error = #expect(throws: CaptureReadError.self) { try replay(try Self.capture(startMs: 1 << 63)) }
        #expect(error?.description.contains("line 2: time '9223372036854775808' ms is beyond") == true, "\(String(describing: error))")
    }

    /// The largest time that fits is domain time like any other: a tap there starts a session.
    @Test func theLastTimeThatFitsReplays() throws {
        let report = try replay(try Self.capture(startMs: UInt64(Int64.max) - 2_020, tap: true))
        #expect(report.link.frames == 12 && report.lastTimeMs == UInt64(Int64.max) && report.sessionsStarted == 1)
    }
}



