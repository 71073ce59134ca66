import Foundation
import Testing
import TestSupport

@Suite struct DecodeCommandTests {
    static let sample = PackagePaths.root + "/samples/drive-20s.ffcap"
    static let golden = PackagePaths.root + "/Tests/CLITests/Fixtures/drive-20s.decode.jsonl"

    /// Regenerate with: FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter DecodeCommandTests
    @Test func sampleCaptureMatchesGoldenJSON() throws {
        let result = try FairFuelExecutable.run(["decode", "--json", Self.sample])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let expected = try Golden.expected(at: Self.golden, actual: result.standardOutput)
        #expect(result.standardOutput == expected)
    }

    @Test func jsonLinesHaveTheSpecFieldsAndStatsComeLast() throws {
        let result = try FairFuelExecutable.run(["decode", "--json", Self.sample])
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let stats = try #require(objects.last?["stats"] as? [String: Int])
        #expect(Set(stats.keys) == ["frames", "cobs_error", "crc_error", "oversize", "bad_version", "unknown_type", "bad_payload", "lost", "duplicate", "event_repeat"])
        #expect(stats["frames"] == objects.count - 1)
        let byType = Dictionary(grouping: objects.dropLast(), by: { $0["type"] as! String })
        #expect(Set(byType.keys).isSuperset(of: ["hello", "heartbeat", "nmea", "ble_adv", "nfc_tag", "power", "log"]))
        let ble = try #require(byType["ble_adv"]?.first)
        for key in ["t_ms", "seq", "mcu_t_ms", "addr", "addr_type", "adv_type", "rssi", "data"] { #expect(ble[key] != nil, "ble_adv.\(key)") }
        #expect((ble["addr"] as? String)?.count == 17)
        let nfc = try #require(byType["nfc_tag"]?.first)
        for key in ["tech", "atqa", "sak", "uid", "ndef"] { #expect(nfc[key] != nil, "nfc_tag.\(key)") }
        let nmea = try #require(byType["nmea"]?.first)
        #expect((nmea["sentence"] as? String)?.hasPrefix("$GP") == true)
        // t_ms never decreases.
        let times = objects.dropLast().map { $0["t_ms"] as! Int }
        #expect(times == times.sorted())
    }

    @Test func tableIsReadable() throws {
        let result = try FairFuelExecutable.run(["decode", Self.sample])
        #expect(result.exitCode == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("t_ms") == true)
        #expect(lines.contains { $0.contains("nfc_tag") && $0.contains("uid 04a22b7a3c5d80") })
        #expect(lines.last?.hasPrefix("frames ") == true)
    }

    @Test func missingFileIsAClearErrorWithNonZeroExit() throws {
        let result = try FairFuelExecutable.run(["decode", "/no/such/capture.ffcap"])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("cannot open /no/such/capture.ffcap: No such file or directory"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func malformedLineIsNamed() throws {
        let path = NSTemporaryDirectory() + "bad-\(UUID().uuidString).ffcap"
        let heartbeat = "0401020103e80301010106383101505f00"
        try "# fairfuel capture v1\n0 rx \(heartbeat)\n5 rx 0g\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FairFuelExecutable.run(["decode", "--json", path])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("line 3: bytes are not hex"))
    }

    @Test func notACaptureIsRefused() throws {
        let path = NSTemporaryDirectory() + "nmea-\(UUID().uuidString).ffcap"
        try "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FairFuelExecutable.run(["decode", path])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("line 1: not a fairfuel capture"))
    }

    @Test func txLinesAreSkipped() throws {
        let path = NSTemporaryDirectory() + "tx-\(UUID().uuidString).ffcap"
        let heartbeat = "0401020103e80301010106383101505f00"
        try "# fairfuel capture v1\n0 tx \(heartbeat)\n7 rx \(heartbeat)\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FairFuelExecutable.run(["decode", "--json", path])
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == #"{"t_ms":7,"seq":1,"type":"heartbeat","uptime_ms":1000,"mcu_dropped":0,"supply_mv":12600,"flags":1}"#)
    }

    @Test func frameTimeIsTheLineOfItsClosingDelimiter() throws {
        let path = NSTemporaryDirectory() + "split-\(UUID().uuidString).ffcap"
        try "# fairfuel capture v1\n10 rx 0401020103e803\n25 rx 01010106383101505f00\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FairFuelExecutable.run(["decode", "--json", path])
        #expect(result.standardOutput.hasPrefix(#"{"t_ms":25,"seq":1,"type":"heartbeat""#))
    }
}
