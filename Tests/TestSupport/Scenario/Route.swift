/// A drive as a list of legs between junctions, each with its limit and what ends it.
public struct Route: Sendable {
    /// What the radio hears around the car on a leg (drives the crowd of strangers).
    public enum Surroundings: Sendable, Equatable {
        case urban, suburban, motorway
    }

    public struct Leg: Sendable {
        public enum End: Sendable, Equatable {
            /// The road goes on; the next leg's limit applies from its start.
            case through
            /// A traffic light, red with this chance (then a wait of 10 to 70 s).
            case light(redChance: Double)
            /// A stop sign: stop for a moment.
            case stopSign
            /// A turn or roundabout taken at this speed, m/s.
            case slow(toMetersPerSecond: Double)
            /// A sudden stop at about 6 m/s² (an emergency, for the harsh-braking checks).
            case hardStop
            /// The car parks here.
            case destination
        }

        public var meters: Double
        /// Speed limit, m/s.
        public var limit: Double
        public var end: End
        /// Stop-and-go traffic along the whole leg.
        public var congested = false
        /// No sky along the whole leg.
        public var tunnel = false
        /// Tall buildings: worse GNSS noise.
        public var urbanCanyon = false
        /// Heading change at the end, degrees.
        public var turnDegrees = 0.0
        public var surroundings: Surroundings
        /// Someone taps their tag halfway along the leg.
        public var tapHalfwayBy: Person?

        public init(meters: Double, limit: Double, end: End, surroundings: Surroundings) {
            self.meters = meters
            self.limit = limit
            self.end = end
            self.surroundings = surroundings
        }
    }

    public var legs: [Leg]

    public init(legs: [Leg]) { self.legs = legs }

    /// Sum of the legs' lengths.
    public var meters: Double { legs.reduce(0) { $0 + $1.meters } }

    /// Joins routes; the last leg of each but the last is driven through.
    public static func + (a: Route, b: Route) -> Route {
        var legs = a.legs
        if var last = legs.popLast() {
            if last.end == .destination { last.end = .slow(toMetersPerSecond: 8) }
            legs.append(last)
        }
        return Route(legs: legs + b.legs)
    }

    /// City streets at 50 km/h (some 30): traffic lights, turns, stop signs and some stop-and-go.
    public static func urban(kilometers: Double, congestion: Double = 0.12, random: inout SeededGenerator) -> Route {
        var legs: [Leg] = []
        var total = 0.0
        while total < kilometers * 1000 {
            let limit = random.chance(0.2) ? 30 / 3.6 : 50 / 3.6
            var end: Leg.End
            let roll = random.unit()
            var turn = 0.0
            if roll < 0.38 {
                end = .light(redChance: 0.55)
            } else if roll < 0.55 {
                end = .slow(toMetersPerSecond: random.uniform(4...7))
                turn = random.chance(0.5) ? 90 : -90
            } else if roll < 0.63 {
                end = .stopSign
                turn = random.chance(0.5) ? 90 : -90
            } else {
                end = .through
            }
            var leg = Leg(meters: random.uniform(120...450), limit: limit, end: end, surroundings: .urban)
            leg.congested = random.chance(congestion)
            leg.urbanCanyon = random.chance(0.35)
            leg.turnDegrees = turn
            legs.append(leg)
            total += leg.meters
        }
        legs[legs.count - 1].end = .destination
        return Route(legs: legs)
    }

    /// Outer roads at 70 to 100 km/h with roundabouts and a few lights.
    public static func suburban(kilometers: Double, random: inout SeededGenerator) -> Route {
        var legs: [Leg] = []
        var total = 0.0
        while total < kilometers * 1000 {
            let limit = random.pick([70, 70, 80, 100]) / 3.6
            let roll = random.unit()
            var end: Leg.End = .through
            var turn = 0.0
            if roll < 0.3 {
                end = .slow(toMetersPerSecond: random.uniform(6...9))
                turn = random.uniform(-120...120)
            } else if roll < 0.45 {
                end = .light(redChance: 0.5)
            }
            var leg = Leg(meters: random.uniform(400...1_600), limit: limit, end: end, surroundings: .suburban)
            leg.turnDegrees = turn
            legs.append(leg)
            total += leg.meters
        }
        legs[legs.count - 1].end = .destination
        return Route(legs: legs)
    }

    /// A motorway: the on-ramp, stretches at 100 to 130 km/h with the odd slowdown, the off-ramp.
    public static func motorway(kilometers: Double, random: inout SeededGenerator) -> Route {
        var legs: [Leg] = []
        var onRamp = Leg(meters: 700, limit: 80 / 3.6, end: .through, surroundings: .motorway)
        onRamp.turnDegrees = random.uniform(-40...40)
        legs.append(onRamp)
        var total = onRamp.meters
        while total < kilometers * 1000 - 800 {
            let slowdown = random.chance(0.1)
            let limit = slowdown ? random.uniform(50...80) / 3.6 : random.pick([100, 120, 130, 130]) / 3.6
            var leg = Leg(
                meters: slowdown ? random.uniform(800...2_000) : random.uniform(2_000...6_000), limit: limit,
                end: .through, surroundings: .motorway)
            leg.turnDegrees = random.uniform(-25...25)
            legs.append(leg)
            total += leg.meters
        }
        var offRamp = Leg(meters: 800, limit: 70 / 3.6, end: .slow(toMetersPerSecond: 8), surroundings: .motorway)
        offRamp.turnDegrees = random.uniform(-90...90)
        legs.append(offRamp)
        legs.append(Leg(meters: 300, limit: 50 / 3.6, end: .destination, surroundings: .suburban))
        return Route(legs: legs)
    }

    /// The same route with a tunnel of about `meters` as its longest leg's middle.
    public func withTunnel(meters: Double) -> Route {
        var copy = self
        guard let index = copy.legs.indices.max(by: { copy.legs[$0].meters < copy.legs[$1].meters }) else { return copy }
        var before = copy.legs[index]
        let total = before.meters
        let tunnelLength = min(meters, total * 0.8)
        before.meters = (total - tunnelLength) / 2
        var tunnel = before
        tunnel.meters = tunnelLength
        tunnel.tunnel = true
        tunnel.turnDegrees = 0
        before.end = .through
        before.turnDegrees = 0
        tunnel.end = .through
        var after = copy.legs[index]
        after.meters = (total - tunnelLength) / 2
        copy.legs.replaceSubrange(index...index, with: [before, tunnel, after])
        return copy
    }

    /// The same route with `person` tapping their tag halfway along leg `legIndex` (while moving).
    public func withTap(by person: Person, onLeg legIndex: Int) -> Route {
        var copy = self
        copy.legs[min(legIndex, copy.legs.count - 1)].tapHalfwayBy = person
        return copy
    }
}
