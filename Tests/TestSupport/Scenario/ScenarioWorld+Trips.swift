
extension ScenarioWorld {
    /// `driver` boards, starts the engine and taps in; the car is then ready to go.
    public mutating func setOff(_ driver: Person, passengers: [Person] = []) {
        for passenger in passengers { board(passenger, atWheel: false) }
        board(driver)
        ignitionOn()
        wait(seconds: 4)
        tap(driver)
        wait(seconds: 20)
    }

    /// Parks: ignition off, `driver` gets out and walks away (`name left` marks it), then
    /// the world runs on for `afterSeconds`.
    public mutating func park(_ driver: Person, afterSeconds: Int = 420) {
        wait(seconds: 4)
        mark("\(driver) stopped")
        ignitionOff()
        wait(seconds: 6)
        mark("\(driver) left")
        exit(driver)
        wait(seconds: afterSeconds)
    }

    /// A short drive across town.
    public mutating func town(kilometers: Double = 2, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        drive(Route.urban(kilometers: kilometers, congestion: 0, random: &random))
    }
}

extension Route {
    /// Town legs of `meters` that each end at a red light.
    public static func redLights(_ count: Int, meters: Double = 300) -> Route {
        var legs = (0..<count).map { _ in Leg(meters: meters, limit: 50 / 3.6, end: .light(redChance: 1), surroundings: .urban) }
        legs.append(Leg(meters: meters, limit: 50 / 3.6, end: .destination, surroundings: .urban))
        return Route(legs: legs)
    }
}
