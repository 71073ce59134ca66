import Foundation
import Testing
import ReplaySupport
import TestSupport

/// The family's driving with what real cars see (kiosk queues of 3 to 12
/// minutes, parks of 5 to 40 minutes half ended without a new tap, MCU brown-outs and
/// service restarts while driving), each day's capture cut into parts that separate
/// `fairfuel replay` processes run one after the other on one store, as a restarted service
/// would: at each restart (losing 2 to 5 s of link traffic, as a killed process does) and at
/// each power-up of the dongle (a park longer than the 15-minute hold-up powers it off).
/// Then: money against the truth, and kilometres given to a driver who did not drive them.
@Suite("Real-life month replay", .serialized, .tags(.replay))
struct RealLifeMonthReplayTests {
    /// Seed 2026 is the month docs/studies.md's figures come from; seed 10 holds a restart whose first
    /// fix is a multipath epoch 490 m off, on a motorway (`ContinuityTests` has the rule's own test).
    /// FAIRFUEL_REAL_LIFE_SEED=N replays month N instead of both.
    @Test("a month with restarts, brown-outs, kiosk queues and parks splits the bills as the truth does", arguments: [2026, 10] as [UInt64])
    func realLifeMonth(seed defaultSeed: UInt64) throws {
        let environment = ProcessInfo.processInfo.environment
        let days = Int(environment["FAIRFUEL_REAL_LIFE_DAYS"] ?? "") ?? RealLifeMonth.days
        if environment["FAIRFUEL_REAL_LIFE_SEED"] != nil && defaultSeed != 2026 { return }
        let seed = UInt64(environment["FAIRFUEL_REAL_LIFE_SEED"] ?? "") ?? defaultSeed
        let outcome = try RealLifeMonth.replayMonth(seed: seed, days: days, realLife: FamilyMonth.RealLife(), cut: true)
        print(outcome.summary(title: "real-life month (seed \(seed), \(days) days)"))
        RealLifeMonth.expectTheRules(outcome, seed: seed)
    }
}
