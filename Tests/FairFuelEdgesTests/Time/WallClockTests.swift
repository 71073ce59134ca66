import FairFuelEdges
import Foundation
import Testing

@Suite struct WallClockTests {
    /// Read between two readings of Foundation's clock (the same CLOCK_REALTIME): milliseconds since
    /// 1970, not seconds and not the monotonic clock's time since boot.
    @Test func readsUTCMillisecondsSince1970() {
        for _ in 0..<20 {
            let before = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
            let now = WallClock.utcMilliseconds()
            let after = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.up))
            #expect(before <= now && now <= after, "\(before) <= \(now) <= \(after)")
        }
        // 2026-01-01 00:00 UTC and later: a clock read in seconds or since boot would be far below.
        #expect(WallClock.utcMilliseconds() > 1_767_225_600_000)
    }

    @Test func keepsTheMillisecondsWithinASecond() {
        var remainders: Set<Int64> = []
        for _ in 0..<40 {
            remainders.insert(WallClock.utcMilliseconds() % 1_000)
            usleep(7_000)
        }
        // 40 readings 7 ms apart: a clock cut to whole seconds would give at most one or two remainders (0).
        #expect(remainders.count > 10, "\(remainders.sorted())")
    }
}
