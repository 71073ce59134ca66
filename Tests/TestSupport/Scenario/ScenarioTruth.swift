import FairFuelCore
import FairFuelDomain

/// What really happened in a scenario, in link time (world milliseconds).
public struct ScenarioTruth: Sendable {
    /// A stretch with one person at the wheel and the engine on.
    public struct Stint: Sendable {
        public var driver: Person
        public var party: Party
        public var fromMs: Int64
        public var toMs: Int64
        public var meters = 0.0
        public var liters = 0.0
    }

    /// A session as it should be: opened by a tap, closed by how it really ended.
    public struct Session: Sendable {
        public enum End: Sendable, Equatable {
            /// The driver got out for good: the car stopped at `stoppedMs`, they left at `leftMs`.
            case departure(stoppedMs: Int64, leftMs: Int64)
            /// Another driver tapped in at this moment.
            case switched(atMs: Int64)
            case manual(atMs: Int64)
        }

        public var driver: Person
        public var tapMs: Int64
        public var end: End?
    }

    public struct Refuel: Sendable {
        public var atMs: Int64
        public var liters: Double
        public var cost: MinorUnits
        public var fullTank: Bool
        /// Cents per litre.
        public var priceCentsPerLiter: Int64
    }

    /// Fuel and distance between two refuels, by party.
    public struct Period: Sendable {
        public var liters: [Party: Double] = [:]
        public var meters: [Party: Double] = [:]
        /// Litres FairFuel's own fuel model gives for the true speeds (perfect GNSS and
        /// sessions), when the world was asked to keep it: what the model alone gets wrong.
        public var modelLiters: [Party: Double] = [:]
        /// The part of `modelLiters` that is work (the model without its idle term).
        public var modelWorkLiters: [Party: Double] = [:]
        /// The refuel that closed the period; nil for the open one.
        public var refuel: Refuel?
    }

    /// One second in which the car moved (kept when `ScenarioOptions.recordMovements`).
    public struct Movement: Sendable {
        /// The second's start, link time.
        public var timeMs: Int64
        public var meters: Double
        /// Who was at the wheel.
        public var driver: Person?
        /// Whose fuel it was.
        public var party: Party
    }

    public var stints: [Stint] = []
    public var movements: [Movement] = []
    public var sessions: [Session] = []
    public var periods: [Period] = [Period()]
    /// Taps of tags nobody is provisioned with.
    public var unknownTapsMs: [Int64] = []
    /// Named moments, for expectations.
    public var markers: [String: Int64] = [:]

    public init() {}

    public var refuels: [Refuel] { periods.compactMap(\.refuel) }

    public func marker(_ name: String) -> Int64 {
        guard let time = markers[name] else { preconditionFailure("no marker named \(name)") }
        return time
    }

    /// Litres and metres by party over the whole scenario.
    public var totalLiters: [Party: Double] {
        periods.reduce(into: [:]) { total, period in
            for (party, liters) in period.liters { total[party, default: 0] += liters }
        }
    }

    public var totalMeters: [Party: Double] {
        periods.reduce(into: [:]) { total, period in
            for (party, meters) in period.meters { total[party, default: 0] += meters }
        }
    }

    /// Who was at the wheel at `timeMs` (engine on), if anyone.
    public func driver(atMs timeMs: Int64) -> Person? {
        stints.last { $0.fromMs <= timeMs && timeMs < $0.toMs }?.driver
    }

    /// The person who drove longest within [fromMs, toMs].
    public func mainDriver(fromMs: Int64, toMs: Int64) -> Person? {
        var overlap: [Person: Int64] = [:]
        for stint in stints {
            let length = min(stint.toMs, toMs) - max(stint.fromMs, fromMs)
            if length > 0 { overlap[stint.driver, default: 0] += length }
        }
        return overlap.max { $0.value < $1.value }?.key
    }
}
