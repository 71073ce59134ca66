import FairFuelDomain
import Testing

@Suite struct EcoScoreTests {
    @Test func ecoScoreFollowsTheREADMEFormula() {
        // Gentle: no harsh events, no idling, at the rated consumption.
        #expect(EcoScore.score(harshEvents: 0, meters: 100_000, idleMs: 0, durationMs: 3_600_000, liters: 6.5, ratedLitersPer100km: 6.5) == 100)
        // 2 harsh / 100 km (−10), 10 % idle (−6), 20 % over rated (−20).
        #expect(EcoScore.score(harshEvents: 2, meters: 100_000, idleMs: 360_000, durationMs: 3_600_000, liters: 7.8, ratedLitersPer100km: 6.5) == 64)
        // Every penalty capped: 40 + 30 + 30.
        #expect(EcoScore.score(harshEvents: 50, meters: 10_000, idleMs: 3_600_000, durationMs: 3_600_000, liters: 5, ratedLitersPer100km: 6.5) == 0)
        // Below the rated consumption earns no bonus.
        #expect(EcoScore.score(harshEvents: 0, meters: 100_000, idleMs: 0, durationMs: 1, liters: 3, ratedLitersPer100km: 6.5) == 100)
        // Too short to judge.
        #expect(EcoScore.score(harshEvents: 0, meters: 999, idleMs: 0, durationMs: 60_000, liters: 0.1, ratedLitersPer100km: 6.5) == nil)
    }
}
