import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelParsers
import FairFuelService
import FairFuelStore
import Foundation
import Testing

/// A capture's `t_ms` is the replay's host time (the core's `LinkClock` makes domain time of it and
/// the MCU's stamps): a time no capture can have is refused with its line, never handed to the core.
@Suite struct ReplayCaptureTimeTests {
    /// Twenty seconds of Anna's drive as the MCU sends it, ending at `endMs`: a tap, fixes at 1 Hz,
    /// then a fix, the ignition off and a last fix in the final 300 ms (the fuel model closes its
    /// block there).
    static func drive(endingAt endMs: UInt64) throws -> String {
        var text = CaptureFormat.header + "\n"
        var seq: UInt16 = 0
        func line(_ timeMs: UInt64, _ message: LinkMessage) throws {
            text += CaptureFormat.line(timeMs: timeMs, direction: .rx, bytes: try FrameEncoder.encode(message, seq: seq)) + "\n"
            seq &+= 1
        }
        func epoch(_ timeMs: UInt64, second: Int) throws {
            let time = "0800\(second < 10 ? "0" : "")\(second).00"
            let rmc = "GPRMC,\(time),A,4807.038,N,01131.000,E,22.4,084.4,230326,003.1,W"
            let gga = "GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
            for body in [rmc, gga] {
                let sum = body.utf8.reduce(UInt8(0), ^)
                let sentence = "$\(body)*\(sum < 16 ? "0" : "")\(String(sum, radix: 16, uppercase: true))"
                try line(timeMs, .nmea(NMEAReport(mcuTimeMs: UInt32(second) * 1_000, sentence: sentence)))
            }
        }
        try line(endMs - 20_000, .hello(Hello(
            firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, boardID: 1, capabilities: [.gnss, .ignitionSense], uptimeMs: 5, name: "t")))
        try line(endMs - 19_999, .power(PowerReport(mcuTimeMs: 6, ignitionOn: true, supplyMillivolts: 12_600)))
        try line(endMs - 19_998, .nfcTag(NFCTagReport(
            mcuTimeMs: 7, technology: .iso14443A, atqa: 0x0004, sak: 0x08, uid: [0x04, 0xA1, 0xB2, 0xC3], ndef: [])))
        for second in 0..<18 { try epoch(endMs - 19_000 + UInt64(second) * 1_000, second: second) }
        try epoch(endMs - 300, second: 18)
        try line(endMs - 200, .power(PowerReport(mcuTimeMs: 19_900, ignitionOn: false, supplyMillivolts: 12_000)))
        try epoch(endMs - 100, second: 19)
        return text
    }

    func replay(_ text: String) throws -> ReplayReport {
        let directory = NSTemporaryDirectory() + "fairfuel-replay-time-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/drive.ffcap"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let store = try TripStore(path: directory + "/fairfuel.db")
        _ = try store.addDriver(name: "Anna", tags: [.uid(try TagUID(bytes: [0x04, 0xA1, 0xB2, 0xC3]))], beacons: [])
        return try Replay(capturePath: path, store: store).run()
    }

    @Test(arguments: [UInt64(60_000), CaptureFormat.maximumTimeMs])
    func aDriveReplaysUpToTheLatestTime(endMs: UInt64) throws {
        let report = try replay(try Self.drive(endingAt: endMs))
        #expect(report.link.frames == 44 && report.lastTimeMs == endMs - 100)
        #expect(report.sessionsStarted == 1 && report.pointsWritten > 10, "\(report)")
    }

    /// Both trapped: a drive ending at Int64.max in the motion tracker (the receiver's clock,
    /// 19 s across the drive, ran ahead of the capture's and its dynamics time passed Int64.max),
    /// and times from 2^63 ms (19 digits, as the line syntax allows) converting to Int64 domain time.
    @Test(arguments: [UInt64(Int64.max), (UInt64(1) << 63) + 20_000])
    func aTimeBeyondTheLatestIsRefusedWithItsLine(endMs: UInt64) throws {
        let error = #expect(throws: CaptureReadError.self) { try replay(try Self.drive(endingAt: endMs)) }
        #expect(error?.description.contains("line 2: time '\(endMs - 20_000)' ms is beyond") == true, "\(String(describing: error))")
    }
}
