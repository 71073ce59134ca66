import Testing

@testable import FairFuelCore

/// `ReconnectBackoff`: the doubling wait between connection attempts, and its per-car jitter.
@Suite struct ReconnectBackoffTests {
    @Test func withoutJitterTheWaitDoublesFromTheMinimumToTheMaximum() {
        let backoff = ReconnectBackoff(minimumMs: 50, maximumMs: 400, jitterPercent: 0)
        #expect((1...6).map { backoff.delayMs(failures: $0, clientKey: "car") } == [50, 100, 200, 400, 400, 400])
        // A failure count past any shift stays at the maximum (no overflow).
        #expect(backoff.delayMs(failures: 10_000, clientKey: "car") == 400)
    }

    @Test func eachWaitLiesBetweenItsJitteredShareAndTheDoubledDelay() {
        let backoff = ReconnectBackoff(minimumMs: 1_000, maximumMs: 300_000, jitterPercent: 50)
        for client in ["fairfuel-a", "fairfuel-b", "hub-1"] {
            for failures in 1...15 {
                let doubled = min(300_000, Int64(1_000) << Int64(failures - 1))
                let delay = backoff.delayMs(failures: failures, clientKey: client)
                #expect(delay >= max(1_000, doubled / 2) && delay <= doubled, "\(client), failure \(failures): \(delay) ms")
            }
        }
    }

    @Test func aFleetThatLostItsBrokerTogetherComesBackSpreadOut() {
        let backoff = ReconnectBackoff(minimumMs: 1_000, maximumMs: 300_000, jitterPercent: 50)
        let cars = (1...200).map { "fairfuel-\($0)" }
        let waits = cars.map { backoff.delayMs(failures: 12, clientKey: $0) }  // at the cap
        // Spread over the upper half of the cap: no two-second window holds more than a few cars.
        #expect(waits.min()! < 160_000 && waits.max()! > 290_000)
        let mean = Double(waits.reduce(0, +)) / Double(waits.count)
        #expect(abs(mean - 225_000) < 15_000, "mean wait \(mean) ms")
        let busiest = Dictionary(grouping: waits, by: { $0 / 2_000 }).values.map(\.count).max()!
        #expect(busiest <= 8, "\(busiest) cars in one two-second window")
        // One car, one attempt: the same wait every time (a test replays it exactly).
        #expect(cars.map { backoff.delayMs(failures: 12, clientKey: $0) } == waits)
        // The next attempt draws anew.
        #expect(cars.map { backoff.delayMs(failures: 13, clientKey: $0) } != waits)
    }

    @Test func fullJitterNeverWaitsLessThanTheMinimum() {
        let backoff = ReconnectBackoff(minimumMs: 500, maximumMs: 30_000, jitterPercent: 100)
        let waits = (1...500).map { backoff.delayMs(failures: 1 + $0 % 8, clientKey: "car-\($0)") }
        #expect(waits.allSatisfy { $0 >= 500 && $0 <= 30_000 })
    }

    @Test func outOfRangeSettingsAreClamped() {
        let backoff = ReconnectBackoff(minimumMs: 0, maximumMs: -5, jitterPercent: 250)
        #expect(backoff.minimumMs == 1 && backoff.maximumMs == 1 && backoff.jitterPercent == 100)
        #expect(backoff.delayMs(failures: 3, clientKey: "car") == 1)
    }

    @Test func theLinkAndGpsdDoubleWithoutJitter() {
        // The MCU link's and gpsd's use: no key, no jitter, 0 failures counts as the first.
        let backoff = ReconnectBackoff(minimumMs: 250, maximumMs: 10_000)
        #expect(backoff.jitterPercent == 0)
        #expect((0...7).map { backoff.delayMs(failures: $0) } == [250, 250, 500, 1_000, 2_000, 4_000, 8_000, 10_000])
    }

    @Test func extremeSettingsNeitherOverflowNorTrap() {
        let widest = ReconnectBackoff(minimumMs: 1, maximumMs: .max, jitterPercent: 100)
        for failures in [1, 2, 62, 63, 64, 65, 1_000, .max] {
            let delay = widest.delayMs(failures: failures, clientKey: "car")
            #expect(delay >= 1 && delay <= .max, "failure \(failures): \(delay)")
        }
        #expect(ReconnectBackoff(minimumMs: .max, maximumMs: .max).delayMs(failures: 5) == .max)
        #expect(ReconnectBackoff(minimumMs: .max / 2 + 1, maximumMs: .max).delayMs(failures: 2) == .max)
        #expect(ReconnectBackoff(minimumMs: 3, maximumMs: 1_000).delayMs(failures: .min) == 3)
    }
}
