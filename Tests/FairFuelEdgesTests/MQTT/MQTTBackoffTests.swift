import Testing

@testable import FairFuelEdges

/// `MQTTBackoff`: the doubling wait between connection attempts, and its per-car jitter.
@Suite struct MQTTBackoffTests {
    @Test func withoutJitterTheWaitDoublesFromTheMinimumToTheMaximum() {
        let backoff = MQTTBackoff(minimumMs: 50, maximumMs: 400, jitterPercent: 0)
        #expect((1...6).map { backoff.delayMs(failures: $0, clientID: "car") } == [50, 100, 200, 400, 400, 400])
        // A failure count past any shift stays at the maximum (no overflow).
        #expect(backoff.delayMs(failures: 10_000, clientID: "car") == 400)
    }

    @Test func eachWaitLiesBetweenItsJitteredShareAndTheDoubledDelay() {
        let backoff = MQTTBackoff(minimumMs: 1_000, maximumMs: 300_000, jitterPercent: 50)
        for client in ["fairfuel-a", "fairfuel-b", "hub-1"] {
            for failures in 1...15 {
                let doubled = min(300_000, Int64(1_000) << Int64(failures - 1))
                let delay = backoff.delayMs(failures: failures, clientID: client)
                #expect(delay >= max(1_000, doubled / 2) && delay <= doubled, "\(client), failure \(failures): \(delay) ms")
            }
        }
    }

    @Test func aFleetThatLostItsBrokerTogetherComesBackSpreadOut() {
        let backoff = MQTTBackoff(minimumMs: 1_000, maximumMs: 300_000, jitterPercent: 50)
        let cars = (1...200).map { "fairfuel-\($0)" }
        let waits = cars.map { backoff.delayMs(failures: 12, clientID: $0) }  // at the cap
        // Spread over the upper half of the cap: no two-second window holds more than a few cars.
        #expect(waits.min()! < 160_000 && waits.max()! > 290_000)
        let mean = Double(waits.reduce(0, +)) / Double(waits.count)
        #expect(abs(mean - 225_000) < 15_000, "mean wait \(mean) ms")
        let busiest = Dictionary(grouping: waits, by: { $0 / 2_000 }).values.map(\.count).max()!
        #expect(busiest <= 8, "\(busiest) cars in one two-second window")
        // One car, one attempt: the same wait every time (a test replays it exactly).
        #expect(cars.map { backoff.delayMs(failures: 12, clientID: $0) } == waits)
        // The next attempt draws anew.
        #expect(cars.map { backoff.delayMs(failures: 13, clientID: $0) } != waits)
    }

    @Test func fullJitterNeverWaitsLessThanTheMinimum() {
        let backoff = MQTTBackoff(minimumMs: 500, maximumMs: 30_000, jitterPercent: 100)
        let waits = (1...500).map { backoff.delayMs(failures: 1 + $0 % 8, clientID: "car-\($0)") }
        #expect(waits.allSatisfy { $0 >= 500 && $0 <= 30_000 })
    }

    @Test func outOfRangeSettingsAreClamped() {
        let backoff = MQTTBackoff(minimumMs: 0, maximumMs: -5, jitterPercent: 250)
        #expect(backoff.minimumMs == 1 && backoff.maximumMs == 1 && backoff.jitterPercent == 100)
        #expect(backoff.delayMs(failures: 3, clientID: "car") == 1)
    }
}
