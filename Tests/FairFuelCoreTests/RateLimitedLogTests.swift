import FairFuelCore
import Testing

/// One line per kind, then a count a minute.
@Suite struct RateLimitedLogTests {
    @Test func aFloodCostsOneLineAndOneCountPerMinutePerKind() {
        var log = RateLimitedLog<String>(intervalMs: 60_000)
        var lines: [String] = []
        // 10 000 noise events and 3 rejections over 150 s.
        for step in 0..<10_000 {
            let now = Int64(step) * 15
            if case let .line(before) = log.admit("noise", nowMs: now) { lines.append("noise at \(now) (\(before) before)") }
            if step % 4_000 == 0, case let .line(before) = log.admit("rejected", nowMs: now) { lines.append("rejected at \(now) (\(before) before)") }
            log.drainSummaries(nowMs: now) { kind, count in lines.append("\(count) more \(kind)") }
        }
        // While the flood goes on, each minute's count rides on the next minute's first line.
        #expect(lines == [
            "noise at 0 (0 before)", "rejected at 0 (0 before)",
            "noise at 60000 (3999 before)", "rejected at 60000 (0 before)",
            "noise at 120000 (3999 before)", "rejected at 120000 (0 before)",
        ])
        #expect(log.pending("noise") == 1_999)
        // No event for a minute: the last count still comes out, and the next event gets a line.
        log.drainSummaries(nowMs: 200_000) { kind, count in lines.append("\(count) more \(kind)") }
        #expect(lines.last == "1999 more noise")
        #expect(log.admit("noise", nowMs: 200_001) == .line(suppressedBefore: 0))
    }

    @Test func aCountNotYetDrainedIsReportedWithTheNextLine() {
        var log = RateLimitedLog<Int>(intervalMs: 1_000)
        #expect(log.admit(1, nowMs: 0) == .line(suppressedBefore: 0))
        #expect(log.admit(1, nowMs: 10) == .counted)
        #expect(log.admit(1, nowMs: 20) == .counted)
        #expect(log.admit(2, nowMs: 20) == .line(suppressedBefore: 0))
        #expect(log.admit(1, nowMs: 1_500) == .line(suppressedBefore: 2))
    }
}
