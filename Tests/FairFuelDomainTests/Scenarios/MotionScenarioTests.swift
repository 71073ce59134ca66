import FairFuelCore
import FairFuelDomain
import Testing
import TestSupport

/// Trip metrics from generated GNSS traffic: distance through a tunnel, harsh events, jitter.
@Suite("Motion scenarios")
struct MotionScenarioTests {
    @Test("a tunnel's GNSS outage keeps the session and the distance stays close to the truth")
    func tunnelDistance() throws {
        let scenario = DomainScenario(
            name: "tunnel",
            script: { world in
                world.setOff(.ben)
                var random = SeededGenerator(seed: 9)
                world.drive(Route.motorway(kilometers: 8, random: &random).withTunnel(meters: 2_500))
                world.park(.ben)
            },
            expected: [])
        let outcome = try scenario.run()
        let record = try #require(outcome.ended.first)
        #expect(outcome.ended.count == 1 && record.reason == .departed)
        let driven = outcome.world.truth.totalMeters[.driver(.ben)] ?? 0
        let measured = record.metrics.distance.value
        #expect(measured > 0.95 * driven && measured < 1.03 * driven, "measured \(measured) m of \(driven) m")
    }

    @Test("GNSS noise at walking pace counts no harsh event; one real hard brake counts once")
    func harshEvents() throws {
        let scenario = DomainScenario(
            name: "harsh",
            nmeaRateHz: 10,
            script: { world in
                world.setOff(.ana)
                world.creep(metersPerSecond: 1.4, seconds: 120)
                world.drive(
                    Route(legs: [Route.Leg(meters: 700, limit: 60 / 3.6, end: .hardStop, surroundings: .suburban)]),
                    style: .calm)
                world.mark("braked")
                world.creep(metersPerSecond: 1.4, seconds: 60)
                world.endSessionByHand()
                world.wait(seconds: 5)
            },
            expected: [])
        let outcome = try scenario.run()
        let record = try #require(outcome.ended.first)
        #expect(record.metrics.harshBrakings == 1)
        #expect(record.metrics.harshAccelerations == 0)
    }

    @Test("ten minutes parked with GNSS jitter add no distance")
    func stationaryJitter() throws {
        let scenario = DomainScenario(
            name: "jitter",
            script: { world in
                world.setOff(.ana)
                world.wait(seconds: 600)
                world.endSessionByHand()
                world.wait(seconds: 5)
            },
            expected: [])
        let outcome = try scenario.run()
        let record = try #require(outcome.ended.first)
        #expect(record.metrics.distance == .zero)
        #expect(record.metrics.movingMs == 0)
    }
}
