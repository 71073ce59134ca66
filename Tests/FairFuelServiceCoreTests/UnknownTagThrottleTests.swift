import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelServiceCore
import Foundation
import Testing
import TestSupport

/// Unknown taps, decided in one place: a card held on the reader or tapped again and again is
/// one event-log row per 10 minutes, a run of different cards one a minute; log lines are one a
/// minute, then a count. The rest are counted, never stored.
@Suite struct UnknownTagThrottleTests {
    @Test("1 500 taps, one every 2 s, of a tag and of random-UID cards, reach the event log a bounded number of times")
    func aFloodOfUnknownTapsIsBounded() throws {
        var throttle = UnknownTagThrottle()
        let card = try TagUID(bytes: [0x04, 0xEE, 0x10, 0x42, 0x7F, 0x3A, 0x80][...])
        var random = SeededGenerator(seed: 3)
        var recorded: [TagUID] = []
        var lines = 0
        // 25 minutes of the same card every 2 s, then 25 minutes of a phone's random UIDs.
        for tap in 0..<1_500 {
            let uid = tap < 750 ? card : try TagUID(bytes: [0x08] + (0..<3).map { _ in UInt8.random(in: 0...255, using: &random) })
            let at = Int64(tap) * 2_000
            let decision = throttle.admit(uid, at: LinkMilliseconds(at), nowMs: at)
            if decision.record { recorded.append(uid) }
            if case .line = decision.line { lines += 1 }
        }
        // The card: at 0, 10 and 20 min; the random UIDs: one a minute over 25 minutes.
        #expect(recorded.filter { $0 == card }.count == 3)
        #expect(recorded.count == 3 + 25, "\(recorded.count) recorded")
        #expect(throttle.notRecorded == 1_500 - recorded.count)
        #expect(lines == 50, "a line a minute over 50 minutes")
    }

    @Test func theServiceCoreHandsTheStoreOnlyTheTapsTheThrottleLetsThrough() throws {
        // A bank card tapped every 20 s for half an hour: three rows (0, 10 and 20 min), the rest counted.
        var script = """
            title Unknown taps
            seed 9
            start 2026-03-02 07:59
            timezone +01:00
            place home 48.13510 11.58200
            vehicle at home
            driver Anna tag ntag213 04:A2:2B:7A:3C:5D:80

            day 1 mon

            """
        for tap in 0..<90 {
            let second = 8 * 3_600 + tap * 20
            script += String(format: "%02d:%02d:%02d tap bank-card 08:11:22:33\n", second / 3_600, second / 60 % 60, second % 60)
        }
        script += "08:40 end\n"
        let path = NSTemporaryDirectory() + "unknown-taps-\(UUID().uuidString).scenario"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rig = try CoreRig(scenario: path)
        rig.run(until: 45 * 60_000)
        let stored = rig.stored.filter { if case .unknownTag = $0 { true } else { false } }
        #expect(stored.count == 3, "\(stored.count) taps handed to the store")
        #expect(rig.core.unknownTagsNotRecorded == 87)
        #expect(rig.log.all.count { $0.contains("unknown tag") && $0.contains("rejected") } == 30, "a line a minute")
    }
}
