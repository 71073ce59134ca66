/// The estimated fuel in the tank, from the fuel log and the estimated fuel of the driving since.
///
/// A full-tank refuel sets the level to the tank's capacity at its moment; a partial refuel adds
/// its litres, up to the capacity; the driving after a refuel takes its estimated litres, down to
/// 0. Before the first full-tank refuel nothing is known, so the level is nil, never a guess.
public enum TankLevel {
    /// One change of the tank, in time order.
    public enum Step: Equatable, Sendable {
        case refuel(liters: Double, fullTank: Bool)
        /// The estimated litres of the driving between two refuels (or after the last one).
        case driving(liters: Double)
    }

    /// A refuel as the rule needs it.
    public struct Refuel: Equatable, Sendable {
        public var atUTCMs: Int64
        public var liters: Double
        public var fullTank: Bool

        public init(atUTCMs: Int64, liters: Double, fullTank: Bool) {
            self.atUTCMs = atUTCMs
            self.liters = liters
            self.fullTank = fullTank
        }
    }

    /// Litres in a tank of `capacity` litres after `steps`; nil while no full-tank refuel is among them.
    public static func liters(capacity: Double, after steps: [Step]) -> Double? {
        var level: Double?
        for step in steps {
            switch step {
            case .refuel(_, fullTank: true): level = capacity
            case let .refuel(liters, fullTank: false): level = level.map { min(capacity, $0 + liters) }
            case let .driving(liters): level = level.map { max(0, $0 - liters) }
            }
        }
        return level
    }

    /// The steps of `refuels` (time order) with the driving between them and after the last.
    ///
    /// `fuelBurnt(after, upTo)` is the estimated litres driven in (after, upTo], the window a bill
    /// covers in the split, so that driving at a refuel's very moment is before it; `upTo` is
    /// `Int64.max` for the driving after the last refuel. The driving before the first refuel is
    /// left out: it changes nothing the rule knows.
    public static func steps(refuels: [Refuel], fuelBurnt: (_ after: Int64, _ upTo: Int64) -> Double) -> [Step] {
        var steps: [Step] = []
        var previous: Int64?
        for refuel in refuels {
            if let previous { steps.append(.driving(liters: fuelBurnt(previous, refuel.atUTCMs))) }
            steps.append(.refuel(liters: refuel.liters, fullTank: refuel.fullTank))
            previous = refuel.atUTCMs
        }
        if let previous { steps.append(.driving(liters: fuelBurnt(previous, .max))) }
        return steps
    }
}
