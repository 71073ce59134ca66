import FairFuelCore
import FairFuelDomain
import Testing

@Suite struct SessionMachineTests {
    static let alice = DriverID(1)
    static let bob = DriverID(2)
    static func t(_ seconds: Double) -> LinkMilliseconds { LinkMilliseconds(Int64(seconds * 1000)) }

    /// Runs `steps` on a fresh machine and returns every signal.
    static func run(_ steps: (inout SessionMachine, (SessionSignal) -> Void) -> Void) -> (SessionMachine, [SessionSignal]) {
        var machine = SessionMachine(cooldownMs: 10_000)
        var signals: [SessionSignal] = []
        steps(&machine) { signals.append($0) }
        return (machine, signals)
    }

    @Test func idleToActiveOnAKnownTap() {
        let (machine, signals) = Self.run { m, emit in m.tap(driver: Self.alice, at: Self.t(1), emit) }
        #expect(machine.state == .active)
        #expect(signals == [
            .transition(from: .idle, to: .starting, at: Self.t(1)),
            .transition(from: .starting, to: .active, at: Self.t(1)),
            .started(driver: Self.alice, at: Self.t(1)),
            .feedback(.sessionStarted),
        ])
    }

    @Test func unknownTapIsRejectedAndChangesNothing() {
        let (idle, idleSignals) = Self.run { m, emit in m.tap(driver: nil, at: Self.t(1), emit) }
        #expect(idle.state == .idle)
        #expect(idleSignals == [.feedback(.rejected)])
        let (active, activeSignals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.tap(driver: nil, at: Self.t(5), emit)
        }
        #expect(active.state == .active)
        #expect(active.driver == Self.alice)
        #expect(activeSignals == [.feedback(.rejected)])
    }

    @Test func sameDriverTapAgainOnlyAccepts() {
        let (machine, signals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.tap(driver: Self.alice, at: Self.t(60), emit)
        }
        #expect(machine.state == .active)
        #expect(machine.startedAt == Self.t(1))
        #expect(signals == [.feedback(.accepted)])
    }

    @Test func otherDriverTapSwitchesAtTheSameInstant() {
        let (machine, signals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.tap(driver: Self.bob, at: Self.t(600), emit)
        }
        #expect(machine.state == .active)
        #expect(machine.driver == Self.bob)
        #expect(signals == [
            .transition(from: .active, to: .switching, at: Self.t(600)),
            .ended(driver: Self.alice, startedAt: Self.t(1), at: Self.t(600), reason: .switched),
            .transition(from: .switching, to: .active, at: Self.t(600)),
            .started(driver: Self.bob, at: Self.t(600)),
            .feedback(.sessionStarted),
        ])
    }

    @Test func otherDriverTapDuringStoppingSwitches() {
        let (machine, signals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.evaluate(readyToStop: true, at: Self.t(300), { _ in })
            m.tap(driver: Self.bob, at: Self.t(305), emit)
        }
        #expect(machine.driver == Self.bob)
        #expect(signals.first == .transition(from: .stopping, to: .switching, at: Self.t(305)))
        #expect(signals.contains(.ended(driver: Self.alice, startedAt: Self.t(1), at: Self.t(305), reason: .switched)))
    }

    @Test func departureEndsAtTheEndOfTheCooldown() {
        let (machine, signals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.evaluate(readyToStop: false, at: Self.t(200), emit)
            m.evaluate(readyToStop: true, at: Self.t(300), emit)
            m.evaluate(readyToStop: true, at: Self.t(305), emit)
            m.evaluate(readyToStop: true, at: Self.t(311.5), emit)  // a heartbeat after the cooldown
        }
        #expect(machine.state == .idle)
        #expect(signals == [
            .transition(from: .active, to: .stopping, at: Self.t(300)),
            .transition(from: .stopping, to: .ended, at: Self.t(310)),
            .ended(driver: Self.alice, startedAt: Self.t(1), at: Self.t(310), reason: .departed),
            .feedback(.sessionEnded),
            .transition(from: .ended, to: .idle, at: Self.t(310)),
        ])
    }

    @Test func returningDuringCooldownGoesBackToActive() {
        let (machine, signals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.evaluate(readyToStop: true, at: Self.t(300), emit)
            m.evaluate(readyToStop: false, at: Self.t(308), emit)
            m.evaluate(readyToStop: false, at: Self.t(400), emit)
        }
        #expect(machine.state == .active)
        #expect(signals == [
            .transition(from: .active, to: .stopping, at: Self.t(300)),
            .transition(from: .stopping, to: .active, at: Self.t(308)),
        ])
    }

    @Test func sameDriverTapDuringStoppingReturnsToActive() {
        let (machine, signals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.evaluate(readyToStop: true, at: Self.t(300), { _ in })
            m.tap(driver: Self.alice, at: Self.t(303), emit)
        }
        #expect(machine.state == .active)
        #expect(signals == [.transition(from: .stopping, to: .active, at: Self.t(303)), .feedback(.accepted)])
    }

    @Test(arguments: [SessionEndReason.manual, .powerLoss])
    func explicitEnds(reason: SessionEndReason) {
        let (machine, signals) = Self.run { m, emit in
            m.tap(driver: Self.alice, at: Self.t(1), { _ in })
            m.endSession(reason, at: Self.t(50), emit)
        }
        #expect(machine.state == .idle)
        #expect(signals.contains(.ended(driver: Self.alice, startedAt: Self.t(1), at: Self.t(50), reason: reason)))
    }

    @Test func endingWhenIdleDoesNothing() {
        let (machine, signals) = Self.run { m, emit in m.endSession(.manual, at: Self.t(5), emit) }
        #expect(machine.state == .idle)
        #expect(signals.isEmpty)
    }

    @Test func evaluateWhenIdleDoesNothing() {
        let (machine, signals) = Self.run { m, emit in m.evaluate(readyToStop: true, at: Self.t(5), emit) }
        #expect(machine.state == .idle)
        #expect(signals.isEmpty)
    }
}
