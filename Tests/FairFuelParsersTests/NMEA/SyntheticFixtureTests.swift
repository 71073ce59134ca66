import FairFuelCore
import FairFuelParsers
import Foundation
import Testing

/// The synthetic fixtures (`Fixtures/nmea/synthetic`, written by
/// `scripts/make-nmea-fixtures.py` from a known track): one per receiver class
/// of issue #14, each checked against the truth its header states. Their
/// golden outputs (`*.log.ffchk`) are compared by `NMEACorpusTests.goldenOutput`.
enum SyntheticFixtures {
    static let names = [
        "marine-talkers.log", "nmea-ubx.log", "nmea-casic.log", "casic-only.log", "gga-10hz.log", "zda-date.log", "midnight.log",
    ]

    static func decode(_ name: String) throws -> (fixes: [GNSSFix], decoder: NMEAFixDecoder) {
        NMEAFixtures.stream([UInt8](try NMEAFixtures.data("synthetic/" + name)))
    }
}

@Suite struct SyntheticFixtureTests {
    static func iso(_ fix: GNSSFix) -> String? { fix.utc?.iso8601 }

    @Test func marineTalkers() throws {
        let (fixes, decoder) = try SyntheticFixtures.decode("marine-talkers.log")
        #expect(fixes.count == 10)
        #expect(fixes.allSatisfy { $0.talker?.code == "IN" && $0.constellation == nil && $0.mode == .fix3D })
        #expect(fixes.map(Self.iso).first == "2025-06-14T10:00:00.000Z")
        #expect(fixes.map(Self.iso).last == "2025-06-14T10:00:09.000Z")
        // RMC's 6.0 kn, not derived.
        #expect(fixes.allSatisfy { nearlyEqual($0.speed?.value, 6 * 1852 / 3600.0, 1e-9) && !$0.motionIsDerived })
        #expect(fixes.allSatisfy { $0.course == 45 })
        // DBT, MWV and HDG: counted as unsupported formatters, never errors.
        #expect(decoder.stats.unsupported == 30 && decoder.stats.malformed == 0 && decoder.stats.badChecksum == 0)
        #expect(decoder.lexerStats.garbageBytes == 0)
    }

    @Test func nmeaWithUBX() throws {
        let (fixes, decoder) = try SyntheticFixtures.decode("nmea-ubx.log")
        #expect(fixes.count == 8)
        #expect(fixes.map(Self.iso) == (0..<8).map { "2024-01-30T15:31:0\($0).000Z" })
        #expect(fixes.allSatisfy { $0.mode == .fix3D && $0.talker == .combined && $0.constellation == .multiple })
        #expect(fixes.allSatisfy { nearlyEqual($0.speed?.value, 20, 0.001) && !$0.motionIsDerived })
        let lexer = decoder.lexerStats
        #expect(lexer.ubx == 24, "\(lexer)")
        // The fake 4000-byte header (16 bytes) and the cut packet (30 bytes) are garbage, nothing else
        // (rescanning their bytes meets more sync bytes, each rejected in turn).
        #expect(lexer.garbageBytes == 16 + 30 && lexer.rejectedBinary >= 2 && lexer.isConsistent, "\(lexer)")
        #expect(decoder.stats.sentences == 32 && decoder.stats.decoded == 32, "\(decoder.stats)")
    }

    @Test func nmeaWithCASIC() throws {
        let (fixes, decoder) = try SyntheticFixtures.decode("nmea-casic.log")
        #expect(fixes.count == 6)
        #expect(fixes.map(Self.iso) == (0..<6).map { "2023-09-09T04:20:0\($0).000Z" })
        #expect(fixes.allSatisfy { nearlyEqual($0.speed?.value, 12, 0.001) && $0.course == 180 })
        let lexer = decoder.lexerStats
        // The packet with the bad checksum (34 bytes) is the only garbage.
        #expect(lexer.casic == 12 && lexer.garbageBytes == 34 && lexer.rejectedBinary >= 1 && lexer.isConsistent, "\(lexer)")
        // Every sentence (GGA GLL GSA GSV RMC VTG ZDA TXT) found: 8 per epoch.
        #expect(decoder.stats.sentences == 48 && decoder.stats.unsupported == 6, "\(decoder.stats)")
    }

    /// A receiver set to CASIC binary only: NAV-PV timed by NAV-TIMEUTC, the damaged epochs lost.
    @Test func casicOnly() throws {
        let (fixes, decoder) = try SyntheticFixtures.decode("casic-only.log")
        #expect(fixes.map(Self.iso) == [0, 1, 3, 5].map { "2025-03-14T09:26:0\($0).000Z" })
        #expect(fixes.allSatisfy { $0.mode == .fix3D && $0.satellitesUsed == 11 && $0.talker == nil })
        #expect(fixes.allSatisfy { nearlyEqual($0.speed?.value, 15) && $0.course == 90 && nearlyEqual($0.altitude?.value, 40.5) })
        #expect(fixes.allSatisfy { nearlyEqual($0.latitude, 52.52) })
        // 15 m/s east at 52.52 N: 2.214e-4 degrees of longitude a second.
        #expect(nearlyEqual(fixes.last?.longitude, 13.405 + 5 * 15 / (111_319.488 * cos(52.52 * .pi / 180)), 1e-9))
        let lexer = decoder.lexerStats
        #expect(lexer.casic == 10 && lexer.rejectedBinary >= 2 && lexer.isConsistent, "\(lexer)")
        #expect(decoder.stats.sentences == 0 && decoder.binaryFixCount == 4)
    }

    /// 10 Hz GGA + GSA only: speed and course derived, time of day kept, no date.
    @Test func ggaOnlyTenHertz() throws {
        let (fixes, _) = try SyntheticFixtures.decode("gga-10hz.log")
        #expect(fixes.count == 40)
        #expect(fixes.allSatisfy { $0.utc == nil && $0.timeOfDay != nil && $0.mode == .fix3D })
        // The first 0.9 s: no anchor a full step back yet.
        #expect(fixes.prefix(9).allSatisfy { $0.speed == nil })
        var checked = 0
        for (index, fix) in fixes.enumerated().dropFirst(9) {
            #expect(fix.motionIsDerived)
            guard let speed = fix.speed?.value else {
                Issue.record("no speed at \(index)")
                continue
            }
            // Anchors every 0.9 s: the derived speed is the mean over the step ending
            // at or before this fix; the truth then was 8 + t (m/s, t in s).
            let t = Double(index) / 10
            #expect(speed > 8 + (t - 1.9) - 0.05 && speed < 8 + t + 0.05, "speed \(speed) at \(t) s")
            #expect(nearlyEqual(fix.course, 30, 0.5), "course \(String(describing: fix.course))")
            checked += 1
        }
        #expect(checked == 31)
    }

    @Test func dateFromZDAOnly() throws {
        let (fixes, _) = try SyntheticFixtures.decode("zda-date.log")
        #expect(fixes.map(Self.iso) == (30..<35).map { "2022-02-28T08:15:\($0).000Z" })
        #expect(fixes.allSatisfy { nearlyEqual($0.speed?.value, 2, 0.01) && !$0.motionIsDerived })
    }

    @Test func acrossMidnight() throws {
        let (fixes, _) = try SyntheticFixtures.decode("midnight.log")
        #expect(
            fixes.map(Self.iso) == [
                "2025-12-31T23:59:56.000Z", "2025-12-31T23:59:57.000Z", "2025-12-31T23:59:58.000Z",
                "2025-12-31T23:59:59.000Z", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z",
                "2026-01-01T00:00:02.000Z", "2026-01-01T00:00:03.000Z",
            ])
    }
}
