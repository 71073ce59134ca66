import FairFuelCore
import FairFuelDomain
import Testing
import TestSupport

/// Sessions through the whole `DrivingMonitor`, from generated events: each row a small
/// named scenario with the sessions it must give, and checks every scenario must pass.
@Suite("Session scenarios")
struct SessionScenarioTests {
    typealias Expected = DomainScenario.ExpectedSession
    typealias Moment = DomainScenario.Moment

    static func left(_ person: Person, _ seconds: Double) -> Moment { Moment(marker: "\(person) left", seconds: seconds) }
    static func stopped(_ person: Person, _ seconds: Double) -> Moment { Moment(marker: "\(person) stopped", seconds: seconds) }

    static let scenarios: [DomainScenario] = [
        DomainScenario(
            name: "fuel stop: the driver steps out for two minutes and comes back",
            script: { world in
                world.setOff(.ana)
                world.town(seed: 1)
                world.fuelStop(mark: "fuel")
                world.town(seed: 2)
                world.park(.ana)
            },
            expected: [Expected(driver: .ana, reason: .departed, endsNotBefore: left(.ana, 0), endsBy: left(.ana, 300))]),
        DomainScenario(
            name: "fuel stop without a fob: ignition off for two minutes",
            script: { world in
                world.setOff(.cleo)
                world.town(seed: 3)
                world.fuelStop(mark: "fuel")
                world.town(seed: 4)
                world.park(.cleo)
            },
            expected: [Expected(driver: .cleo, reason: .departed, endsNotBefore: left(.cleo, 0), endsBy: left(.cleo, 300))]),
        DomainScenario(
            name: "red lights: stops of up to 70 s with the driver inside",
            script: { world in
                world.setOff(.ben)
                world.drive(.redLights(8))
                world.park(.ben)
            },
            expected: [Expected(driver: .ben, reason: .departed, endsNotBefore: left(.ben, 0), endsBy: left(.ben, 300))]),
        DomainScenario(
            name: "the driver leaves while another driver stays in the car with their fob",
            script: { world in
                world.setOff(.ana, passengers: [.ben])
                world.town(seed: 5)
                world.park(.ana, afterSeconds: 480)
            },
            expected: [Expected(driver: .ana, reason: .departed, endsNotBefore: left(.ana, 0), endsBy: left(.ana, 300))]),
        DomainScenario(
            name: "the driver leaves; another driver's fob was left in the car",
            script: { world in
                world.setOff(.ben, passengers: [.ana])
                world.town(seed: 6)
                world.leaveFobInCar(.ana)
                world.exit(.ana)
                world.park(.ben, afterSeconds: 480)
            },
            expected: [Expected(driver: .ben, reason: .departed, endsNotBefore: left(.ben, 0), endsBy: left(.ben, 300))]),
        DomainScenario(
            name: "switch mid-trip: the passenger taps while the car moves",
            script: { world in
                world.setOff(.ana, passengers: [.ben])
                var random = SeededGenerator(seed: 7)
                world.drive(Route.urban(kilometers: 3, congestion: 0, random: &random).withTap(by: .ben, onLeg: 4))
                world.exit(.ana)
                world.park(.ben)
            },
            expected: [
                Expected(driver: .ana, reason: .switched),
                Expected(driver: .ben, reason: .departed, endsNotBefore: left(.ben, 0), endsBy: left(.ben, 300)),
            ]),
        DomainScenario(
            name: "a fob with a dying battery: weak, sparse adverts",
            script: { world in
                world.setFob(.ana, world.family[.ana].fob!.dying)
                world.setOff(.ana)
                world.drive(.redLights(4))
                world.town(seed: 8)
                world.park(.ana)
            },
            expected: [Expected(driver: .ana, reason: .departed, endsNotBefore: left(.ana, 0), endsBy: left(.ana, 300))]),
        DomainScenario(
            name: "GNSS outage in a tunnel",
            script: { world in
                world.setOff(.ben)
                var random = SeededGenerator(seed: 9)
                world.drive(Route.motorway(kilometers: 8, random: &random).withTunnel(meters: 2_500))
                world.park(.ben)
            },
            expected: [Expected(driver: .ben, reason: .departed, endsNotBefore: left(.ben, 0), endsBy: left(.ben, 300))]),
        DomainScenario(
            name: "parked with the engine idling and the driver inside for eight minutes",
            script: { world in
                world.setOff(.ana)
                world.town(seed: 10)
                world.wait(seconds: 480)
                world.town(seed: 11)
                world.park(.ana)
            },
            expected: [Expected(driver: .ana, reason: .departed, endsNotBefore: left(.ana, 0), endsBy: left(.ana, 300))]),
        DomainScenario(
            name: "parked idling without a fob: ignition on keeps the session",
            script: { world in
                world.setOff(.cleo)
                world.town(seed: 12)
                world.wait(seconds: 480)
                world.town(seed: 13)
                world.park(.cleo)
            },
            expected: [Expected(driver: .cleo, reason: .departed, endsNotBefore: left(.cleo, 0), endsBy: left(.cleo, 300))]),
        DomainScenario(
            name: "an unknown tag, idle and mid-trip, is rejected and changes nothing",
            script: { world in
                world.board(.ana)
                world.ignitionOn()
                world.wait(seconds: 3)
                world.tapUnknownTag()
                world.wait(seconds: 5)
                world.tap(.ana)
                world.wait(seconds: 10)
                world.town(seed: 14)
                world.tapUnknownTag()
                world.wait(seconds: 5)
                world.town(seed: 15)
                world.park(.ana)
            },
            expected: [Expected(driver: .ana, reason: .departed, endsNotBefore: left(.ana, 0), endsBy: left(.ana, 300))]),
        DomainScenario(
            name: "the same driver taps again mid-trip",
            script: { world in
                world.setOff(.ben)
                world.town(seed: 16)
                world.tap(.ben)
                world.town(seed: 17)
                world.park(.ben)
            },
            expected: [Expected(driver: .ben, reason: .departed, endsNotBefore: left(.ben, 0), endsBy: left(.ben, 300))]),
        DomainScenario(
            name: "no fob, no ignition sense: the 10-minute stop ends the session",
            ignitionSense: false,
            script: { world in
                world.setOff(.cleo)
                world.town(seed: 18)
                world.park(.cleo, afterSeconds: 720)
            },
            expected: [Expected(driver: .cleo, reason: .departed, endsNotBefore: stopped(.cleo, 600), endsBy: stopped(.cleo, 640))],
            departureLatencyLimitSeconds: 660),
        DomainScenario(
            name: "no fob, ignition sense: ignition off and a 3-minute stop end the session",
            script: { world in
                world.setOff(.cleo)
                world.town(seed: 19)
                world.park(.cleo)
            },
            expected: [Expected(driver: .cleo, reason: .departed, endsNotBefore: stopped(.cleo, 180), endsBy: stopped(.cleo, 200))]),
        DomainScenario(
            name: "a manual end while driving",
            script: { world in
                world.setOff(.ana)
                world.town(seed: 20)
                world.endSessionByHand()
                world.town(seed: 21)
                world.park(.ana)
            },
            expected: [Expected(driver: .ana, reason: .manual)]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: DomainScenario) throws {
        let outcome = try scenario.run()
        let truth = outcome.world.truth

        var sessions: [(driver: DriverID, reason: SessionEndReason?, end: LinkMilliseconds?)] =
            outcome.ended.map { ($0.driver, $0.reason, $0.endedAt) }
        if let open = outcome.openDriver { sessions.append((open, nil, nil)) }
        try #require(
            sessions.count == scenario.expected.count,
            "sessions: \(sessions.map { "\($0.driver) \($0.reason?.rawValue ?? "open")" })")
        #expect(outcome.started.count == scenario.expected.count)
        for (session, expected) in zip(sessions, scenario.expected) {
            #expect(session.driver == ScenarioFamily.driverID(expected.driver))
            #expect(session.reason == expected.reason)
            if let bound = expected.endsNotBefore, let end = session.end {
                #expect(end.value >= outcome.time(bound), "ended \(outcome.time(bound) - end.value) ms too early")
            }
            if let bound = expected.endsBy, let end = session.end {
                #expect(end.value <= outcome.time(bound), "ended \(end.value - outcome.time(bound)) ms too late")
            }
        }

        // Against the truth: every session starts at its tap and ends for what really happened, never early.
        try #require(truth.sessions.count == sessions.count)
        for (index, real) in truth.sessions.enumerated() {
            #expect(outcome.started[index].at.value == real.tapMs)
            guard index < outcome.ended.count else { continue }
            let record = outcome.ended[index]
            switch real.end {
            case let .departure(stoppedMs, leftMs)?:
                #expect(record.endedAt.value >= leftMs, "a session ended while its driver was still in the car")
                #expect(Double(record.endedAt.value - leftMs) <= scenario.departureLatencyLimitSeconds * 1000)
                // The reported stop and last presence.
                let stopped = try #require(record.stoppedAt, "stoppedAt is reported")
                #expect(abs(stopped.value - stoppedMs) <= 5_000, "stopped at \(stopped.value), really \(stoppedMs)")
                if outcome.world.family[real.driver].fob != nil {
                    let last = try #require(record.driverLeftAt, "driverLeftAt is reported")
                    #expect(last.value >= leftMs - 2_000 && last.value <= leftMs + 60_000, "left at \(last.value), really \(leftMs)")
                } else {
                    #expect(record.driverLeftAt == nil)
                }
            case let .switched(atMs)?:
                #expect(record.endedAt.value == atMs, "a switch ends at the tap")
            case let .manual(atMs)?:
                #expect(record.endedAt.value == atMs)
            case nil:
                Issue.record("the truth has \(real.driver)'s session open")
            }
        }

        // A departure ends at the end of the cooldown that began when it became ready to stop.
        var stoppingSince: LinkMilliseconds?
        for output in outcome.outputs {
            switch output {
            case let .transition(from, to, at):
                if to == .stopping { stoppingSince = at }
                if from == .stopping && to == .active { stoppingSince = nil }
            case let .sessionEnded(record) where record.reason == .departed:
                let since = try #require(stoppingSince, "a departure passes through STOPPING")
                #expect(record.endedAt == since + SessionThresholds().cooldownMs)
                stoppingSince = nil
            default:
                break
            }
        }
    }

    @Test("an unknown tag is reported, rejected and starts nothing")
    func unknownTag() throws {
        let scenario = Self.scenarios.first { $0.name.hasPrefix("an unknown tag") }!
        let outcome = try scenario.run()
        let unknown = outcome.outputs.filter { if case .unknownTag = $0 { true } else { false } }
        #expect(unknown.count == 2)
        #expect(outcome.outputs.filter { $0 == .feedback(.rejected) }.count == 2)
        #expect(outcome.started.count == 1)
    }

    @Test("the same driver's second tap is accepted and starts nothing")
    func sameDriverTap() throws {
        let scenario = Self.scenarios.first { $0.name.hasPrefix("the same driver") }!
        let outcome = try scenario.run()
        #expect(outcome.outputs.contains(.feedback(.accepted)))
        #expect(outcome.started.count == 1)
    }
}
