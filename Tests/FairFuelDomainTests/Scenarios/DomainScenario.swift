import FairFuelCore
import FairFuelDomain
import Testing
import TestSupport

/// One named scenario: a script for the world and the sessions the domain must make of it.
struct DomainScenario: Sendable, CustomTestStringConvertible {
    /// A moment relative to a named marker, for end-time bounds.
    struct Moment: Sendable {
        var marker: String
        var seconds: Double
    }

    struct ExpectedSession: Sendable {
        var driver: Person
        /// nil: still open when the script ends.
        var reason: SessionEndReason?
        var endsNotBefore: Moment?
        var endsBy: Moment?
    }

    var name: String
    var seed: UInt64 = 11
    var ignitionSense = true
    var nmeaRateHz = 1
    var script: @Sendable (inout ScenarioWorld) -> Void
    var expected: [ExpectedSession]
    /// The longest a departure may take to end its session.
    var departureLatencyLimitSeconds = 300.0

    var testDescription: String { name }

    /// What the domain made of the script.
    struct Outcome {
        var world: ScenarioWorld
        var ended: [SessionRecord] = []
        var started: [(driver: DriverID, at: LinkMilliseconds)] = []
        var openDriver: DriverID?
        var outputs: [DomainOutput] = []
        var monitor: DrivingMonitor

        func time(_ moment: DomainScenario.Moment) -> Int64 {
            world.truth.marker(moment.marker) + Int64(moment.seconds * 1000)
        }
    }

    /// Runs the script and feeds every event through a fresh `DrivingMonitor`.
    func run() throws -> Outcome {
        var options = ScenarioOptions(seed: seed)
        options.ignitionSense = ignitionSense
        options.nmeaRateHz = nmeaRateHz
        var world = ScenarioWorld(family: .standard, options: options)
        script(&world)
        let events = world.takeEvents()
        let monitor = DrivingMonitor(
            configuration: MonitorConfiguration(), directory: world.family.directory,
            fuel: FuelEstimator(model: FuelModel(profile: try VehicleFuelProfile())))
        var outcome = Outcome(world: world, monitor: monitor)
        for event in events {
            guard let domainEvent = event.domainEvent(ignitionSense: ignitionSense) else { continue }
            outcome.monitor.handle(domainEvent) { output in
                outcome.outputs.append(output)
                switch output {
                case let .sessionStarted(driver, at): outcome.started.append((driver, at))
                case let .sessionEnded(record): outcome.ended.append(record)
                default: break
                }
            }
        }
        outcome.openDriver = outcome.monitor.machine.driver
        return outcome
    }
}
