import FairFuelCore
import FairFuelDomain
import Testing
import TestSupport

/// Without ignition sense the engine's state is a guess. Once the driver's fob has gone
/// quiet with the car standing, nobody is idling it: the minutes the departure rules
/// wait before ending the session must not be billed to that driver as idle fuel.
@Suite("Idle fuel after the driver left")
struct IdleAfterDepartureTests {
    /// Session fuel accrued after the car stopped, and the session's record.
    private func fuelAfterStop(ignitionSense: Bool) throws -> (liters: Double, record: SessionRecord) {
        let scenario = DomainScenario(
            name: "park and walk away",
            ignitionSense: ignitionSense,
            script: { world in
                world.setOff(.ana)
                world.town(seed: 31)
                world.park(.ana)
            },
            expected: [])
        let outcome = try scenario.run()
        let stoppedAt = outcome.time(DomainScenario.Moment(marker: "\(Person.ana) stopped", seconds: 0))
        var fuelAtStop: Double?
        for case let .tripPoint(point) in outcome.outputs where point.at.value <= stoppedAt {
            fuelAtStop = point.fuel.value
        }
        let record = try #require(outcome.ended.first, "the session ends by departure")
        let atStop = try #require(fuelAtStop, "trip points before the stop")
        return (record.metrics.fuel.value - atStop, record)
    }

    @Test("without ignition sense, a stopped car whose driver's fob is gone burns nothing")
    func withoutIgnitionSense() throws {
        let (liters, record) = try fuelAfterStop(ignitionSense: false)
        #expect(record.reason == .departed)
        // The profile idles at 0.8 L/h. From the stop: 4 s with the driver inside, 6 s to
        // get out, then the fob's 10 s silence timeout: about 20 s of idle, 0.0044 L.
        // Before this rule the whole departure wait (over 3 minutes, ~0.04 L) was billed.
        let idlePerSecond = 0.8 / 3600
        #expect(liters <= idlePerSecond * 30, "billed \(liters) L after the stop")
        // And the seconds the driver was still in the car are billed: at least 5 s of idle.
        #expect(liters >= idlePerSecond * 5, "billed \(liters) L after the stop")
    }

    @Test("with ignition sense, the ignition decides and the same departure costs nothing after it")
    func withIgnitionSense() throws {
        let (liters, record) = try fuelAfterStop(ignitionSense: true)
        #expect(record.reason == .departed)
        #expect(liters <= 0.8 / 3600 * 10, "billed \(liters) L after the stop")
    }
}
